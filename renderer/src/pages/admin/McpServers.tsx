import type { McpServer } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { ShieldIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { Time } from '../../ui/Time.js';
import { toast } from '../../ui/toast.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';

const STATE: Record<McpServer['state'], { label: string; tone: string; hint: string }> = {
  ready: { label: 'Ready', tone: 'badge-success', hint: 'Running; its tools are offered to agents.' },
  idle: { label: 'Not started', tone: '', hint: 'It starts when an agent first needs it, or when you connect it.' },
  starting: { label: 'Starting', tone: 'badge-accent', hint: 'Starting and listing its tools.' },
  failed: { label: 'Failed', tone: 'badge-danger', hint: 'Not running; it restarts by itself after a pause.' },
  disabled: { label: 'Disabled', tone: '', hint: 'enabled = false in its [[mcp.servers]] entry.' },
  stopped: { label: 'Stopped', tone: '', hint: 'Stopped.' },
};

const EXAMPLE = `[[mcp.servers]]
name = "files"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
tools = ["read_file", "search_files"]`;

/** Admin → MCP: the servers of `[[mcp.servers]]`, how each is doing, and the tools agents get from it. */
export function McpServers() {
  const servers = useLoader(() => client.call('mcp.servers.list', {}));
  return (
    <Section
      title="MCP servers"
      description="Servers declared in the configuration’s [[mcp.servers]]. Agentic answers by models that call tools are offered their tools, next to Parley’s own."
      actions={
        <Button size="sm" onClick={servers.reload}>
          Refresh
        </Button>
      }
    >
      <Loadable state={servers.state} reload={servers.reload} loading="Loading MCP servers…" shape="list" failed="The MCP servers could not be loaded">
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState
              icon={<ShieldIcon />}
              title="No MCP servers are declared"
              actions={
                <a className="btn btn-secondary" href="#/admin/config">
                  Open the configuration
                </a>
              }
            >
              <p>In the configuration, replace <code>servers = []</code> with one [[mcp.servers]] table per server, for example:</p>
              <pre className="mcp-example">{EXAMPLE}</pre>
            </EmptyState>
          ) : (
            <ul className="mcp-list" aria-label="MCP servers">
              {list.data.map((server) => (
                <ServerCard key={server.name} server={server} onChanged={servers.reload} />
              ))}
            </ul>
          )
        }
      </Loadable>
    </Section>
  );
}

function toolsNote(state: McpServer['state']): string {
  if (state === 'ready') return 'The allow-list leaves no tool of this server.';
  if (state === 'disabled') return 'Set enabled = true in the configuration to offer its tools.';
  return 'Its tools are listed once it has started.';
}

function ServerCard({ server, onChanged }: { server: McpServer; onChanged: () => void }) {
  const state = STATE[server.state];
  const connect = useAction(async () => {
    const after = await client.call('mcp.servers.connect', { name: server.name });
    if (after.state === 'ready') toast.success(`${server.name} is ready`, `${after.tools.length} tool${after.tools.length === 1 ? '' : 's'} offered to agents.`);
    else toast.error(`${server.name} could not start`, after.last_error?.message ?? 'See its last error.');
    onChanged();
  });
  const headingId = `mcp-${server.name}`;
  return (
    <li className="mcp-server" aria-labelledby={headingId}>
      <div className="mcp-server-header">
        <div className="mcp-server-title">
          <h3 id={headingId}>{server.name}</h3>
          <span className={`badge ${state.tone}`}>{state.label}</span>
        </div>
        {server.enabled ? (
          <Button size="sm" onClick={() => void connect.run()} busy={connect.busy} aria-label={`${server.state === 'ready' ? 'Restart' : 'Connect'} ${server.name}`}>
            {server.state === 'ready' ? 'Restart' : 'Connect'}
          </Button>
        ) : null}
      </div>
      <p className="mcp-server-hint">{state.hint}</p>
      <dl className="mcp-facts">
        <div>
          <dt>{server.transport === 'stdio' ? 'Program' : 'Endpoint'}</dt>
          <dd>
            <code>{server.target}</code>
          </dd>
        </div>
        <div>
          <dt>Call timeout</dt>
          <dd>{server.timeout_seconds} s</dd>
        </div>
        {server.started_at ? (
          <div>
            <dt>Started</dt>
            <dd>
              <Time iso={server.started_at} />
            </dd>
          </div>
        ) : null}
        {server.restarts > 0 ? (
          <div>
            <dt>Restarts</dt>
            <dd>{server.restarts}</dd>
          </div>
        ) : null}
        {server.next_retry_at ? (
          <div>
            <dt>Next attempt</dt>
            <dd>
              <Time iso={server.next_retry_at} />
            </dd>
          </div>
        ) : null}
      </dl>
      {connect.error ? <Alert tone="error">{connect.error}</Alert> : null}
      {server.last_error ? (
        <Alert tone={server.state === 'failed' ? 'error' : 'warning'} title={server.state === 'failed' ? 'Last error' : 'Warning'}>
          <p className="mcp-error-text">{server.last_error.message}</p>
          <p className="muted">
            <Time iso={server.last_error.at} />
          </p>
        </Alert>
      ) : null}
      <DataTable
        caption={`Tools of ${server.name}`}
        rows={server.tools}
        rowKey={(tool) => tool.name}
        empty={<TableEmpty>{toolsNote(server.state)}</TableEmpty>}
        name={{
          header: 'Tool',
          cell: (tool) => (
            <>
              {tool.name}
              <span className="cell-secondary">
                <code>{tool.qualified_name}</code>
              </span>
            </>
          ),
        }}
        columns={[{ id: 'description', header: 'What it does', wrap: true, cell: (tool) => tool.description ?? <span className="muted">No description</span> }]}
      />
      {server.hidden_tools.length > 0 ? (
        <p className="muted mcp-hidden">
          Left out by the allow-list ({server.hidden_tools.length}): {server.hidden_tools.join(', ')}
        </p>
      ) : null}
    </li>
  );
}
