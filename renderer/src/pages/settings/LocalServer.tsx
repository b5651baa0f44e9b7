import { client, connection } from '../../api/index.js';
import { Section } from '../../ui/Page.js';
import { useLoader } from '../../ui/useLoader.js';

const EXAMPLE = `[server]
enabled = true   # serve the HTTP API next to the desktop app (served mode always does)
port = 4317      # the default; 0 picks a free port`;

/**
 * Where the loopback HTTP server listens. Editing the config from the app is not built yet, so this
 * says where the setting lives instead of offering a switch that would not persist.
 */
export function LocalServer() {
  const version = useLoader(() => client.call('service.version', {}));
  // In a browser, this page was itself served by that server: its origin is the address.
  const address = connection.kind === 'browser' ? window.location.origin : null;
  return (
    <Section title="Local HTTP server" description="Scripts, browsers and OpenAI-compatible tools reach Parley through it, on this machine only.">
      <dl className="details server-details">
        <div>
          <dt>Address</dt>
          <dd>{address ? <code className="key-prefix">{address}</code> : <span className="muted">Set in parley.toml (see below)</span>}</dd>
        </div>
        {address ? (
          <div>
            <dt>OpenAI-compatible base URL</dt>
            <dd>
              <code className="key-prefix">{address}/v1</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Version</dt>
          <dd>{version.state.status === 'ready' ? version.state.data.version : <span className="muted">…</span>}</dd>
        </div>
      </dl>
      <h3 className="subsection-title">Turning it on or off, or changing the port</h3>
      <p>
        Edit the <code>[server]</code> section of <code>parley.toml</code> in Parley’s data folder, then restart Parley:
      </p>
      <pre className="code-block">{EXAMPLE}</pre>
      <p className="muted">
        In served mode, <code>npm run serve -- --port &lt;port&gt;</code> or the <code>PARLEY_PORT</code> variable overrides the port for one run. The
        server listens on the loopback address only, never on a network.
      </p>
    </Section>
  );
}
