import { useId, useState, type FormEvent } from 'react';
import { ServiceError } from '../../../../shared/errors.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { errorText } from '../../ui/error-text.js';
import { useLoader } from '../../ui/useLoader.js';
import { useBusy } from '../../ui/useBusy.js';

type ServerState = OutputOf<Operations['service.server']>;

type Outcome = { kind: 'saved'; restart: string[] } | { kind: 'failed'; detail: string; port?: string };

const DESCRIPTION = 'Scripts, browsers and OpenAI-compatible tools reach Parley through it, on this machine only.';

function portOf(url: string): number | null {
  const port = new URL(url).port;
  return port ? Number(port) : null;
}

/** What the server does now, in words. */
function statusOf(server: ServerState): { label: string; tone: 'success' | 'danger' | 'neutral' } {
  if (server.url) return { label: 'On', tone: 'success' };
  if (server.enabled) return { label: 'Not listening', tone: 'danger' };
  return { label: 'Off', tone: 'neutral' };
}

/** The loopback HTTP server: its address for everyone; on/off and port for super admins. */
export function LocalServer({ canEdit }: { canEdit: boolean }) {
  const server = useLoader(() => client.call('service.server', {}));
  return (
    <Section title="Local HTTP server" description={DESCRIPTION}>
      <Loadable state={server.state} reload={server.reload} loading="Loading the server’s state…" failed="The server’s state could not be loaded">
        {(state) => (
          <>
            <ServerDetails server={state} />
            {canEdit ? (
              <ServerForm server={state} onSaved={server.reload} />
            ) : (
              <p className="muted">Only super admins can turn the server on or off or change its port.</p>
            )}
          </>
        )}
      </Loadable>
    </Section>
  );
}

function ServerDetails({ server }: { server: ServerState }) {
  const status = statusOf(server);
  const runningPort = server.url ? portOf(server.url) : null;
  return (
    <>
      {server.problem ? (
        <Alert tone="warning" title="The server is not listening">
          {server.problem}
        </Alert>
      ) : null}
      <dl className="details server-details">
        <div>
          <dt>Status</dt>
          <dd>
            <span className={`badge badge-${status.tone}`}>{status.label}</span>
          </dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>{server.url ? <code className="key-prefix">{server.url}</code> : <span className="muted">None while it is off</span>}</dd>
        </div>
        {server.url ? (
          <div>
            <dt>OpenAI-compatible base URL</dt>
            <dd>
              <code className="key-prefix">{server.url}/v1</code>
            </dd>
          </div>
        ) : null}
        {server.mode === 'served' && runningPort !== null && server.port !== 0 && runningPort !== server.port ? (
          <div>
            <dt>Saved port</dt>
            <dd>
              {server.port} <span className="muted">(this run was started with another port; the saved one applies at the next start without one)</span>
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

function ServerForm({ server, onSaved }: { server: ServerState; onSaved: () => void }) {
  const [enabled, setEnabled] = useState(server.enabled);
  const [port, setPort] = useState(String(server.port));
  const { busy, during } = useBusy();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const checkboxId = useId();
  const served = server.mode === 'served';
  const parsedPort = /^\d{1,5}$/.test(port.trim()) ? Number(port.trim()) : NaN;
  const portError = Number.isInteger(parsedPort) && parsedPort <= 65535 ? null : 'Enter a port from 0 to 65535 (0 picks a free one).';
  const changed = enabled !== server.enabled || parsedPort !== server.port;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (portError || !changed) return;
    setOutcome(null);
    try {
      const saved = await during(async () => {
        const current = await client.call('admin.config.get', {});
        return client.call('admin.config.patch', { values: { 'server.enabled': enabled, 'server.port': parsedPort }, base_version: current.version });
      });
      setOutcome({ kind: 'saved', restart: saved.restart_required.filter((key) => key.startsWith('server.')) });
      onSaved();
    } catch (error) {
      const portProblem = error instanceof ServiceError ? error.errors?.find((e) => e.path === 'server.port')?.message : undefined;
      setOutcome({ kind: 'failed', detail: errorText(error), ...(portProblem ? { port: portProblem } : {}) });
    }
  }

  return (
    <form className="stack-form server-form" onSubmit={(event) => void save(event)} noValidate>
      <label className="checkbox-row" htmlFor={checkboxId}>
        <input
          id={checkboxId}
          type="checkbox"
          checked={served || enabled}
          disabled={served}
          onChange={(event) => setEnabled(event.target.checked)}
          aria-describedby={served ? `${checkboxId}-hint` : undefined}
        />
        Serve the HTTP API on this machine
      </label>
      {served ? (
        <p className="field-hint" id={`${checkboxId}-hint`}>
          Served mode always serves it: this page comes through it. The switch applies to the desktop app.
        </p>
      ) : null}
      <TextField
        label="Port"
        inputMode="numeric"
        value={port}
        onChange={(event) => setPort(event.target.value)}
        error={outcome?.kind === 'failed' && outcome.port ? outcome.port : port.trim() === '' ? null : portError}
        hint="On 127.0.0.1 only. 0 picks a free port at each start."
        className="port-input"
      />
      {outcome?.kind === 'saved' ? (
        outcome.restart.length ? (
          <Alert tone="warning" title="Saved">
            Restart Parley to apply it: this server keeps its address until then.
          </Alert>
        ) : (
          <Alert tone="success" title="Saved">
            The server follows the new settings now.
          </Alert>
        )
      ) : null}
      {outcome?.kind === 'failed' && !outcome.port ? <Alert tone="error" title="Not saved">{outcome.detail}</Alert> : null}
      <div>
        <Button type="submit" variant="primary" busy={busy} disabled={!changed || Boolean(portError)}>
          Save server settings
        </Button>
      </div>
    </form>
  );
}
