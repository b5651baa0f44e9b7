import { FormattedMessage, useIntl } from 'react-intl';
import type { McpServer } from '../../../../shared/operations/index.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
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

const STATE: Record<McpServer['state'], { labelId: MessageId; tone: string; hintId: MessageId }> = {
  ready: { labelId: 'admin.mcp.state.ready', tone: 'badge-success', hintId: 'admin.mcp.state.readyHint' },
  idle: { labelId: 'admin.mcp.state.idle', tone: '', hintId: 'admin.mcp.state.idleHint' },
  starting: { labelId: 'admin.mcp.state.starting', tone: 'badge-accent', hintId: 'admin.mcp.state.startingHint' },
  failed: { labelId: 'admin.mcp.state.failed', tone: 'badge-danger', hintId: 'admin.mcp.state.failedHint' },
  disabled: { labelId: 'admin.mcp.state.disabled', tone: '', hintId: 'admin.mcp.state.disabledHint' },
  stopped: { labelId: 'admin.mcp.state.stopped', tone: '', hintId: 'admin.mcp.state.stoppedHint' },
};

/** The TOML an empty list is replaced by: configuration text, the same in every language. */
const EMPTY_SERVERS = 'servers = []';

const EXAMPLE = `[[mcp.servers]]
name = "files"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
tools = ["read_file", "search_files"]`;

/** Admin → MCP: the servers of `[[mcp.servers]]`, how each is doing, and the tools agents get from it. */
export function McpServers() {
  const intl = useIntl();
  const servers = useLoader(() => client.call('mcp.servers.list', {}));
  return (
    <Section
      title={intl.formatMessage({ id: 'admin.mcp.title' })}
      description={intl.formatMessage({ id: 'admin.mcp.description' })}
      actions={
        <Button size="sm" onClick={servers.reload}>
          <FormattedMessage id="admin.mcp.refresh" />
        </Button>
      }
    >
      <Loadable
        state={servers.state}
        reload={servers.reload}
        loading={intl.formatMessage({ id: 'admin.mcp.loading' })}
        shape="list"
        failed={intl.formatMessage({ id: 'admin.mcp.loadFailed' })}
      >
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState
              icon={<ShieldIcon />}
              title={intl.formatMessage({ id: 'admin.mcp.empty.title' })}
              actions={
                <a className="btn btn-secondary" href="#/admin/config">
                  <FormattedMessage id="admin.mcp.empty.open" />
                </a>
              }
            >
              <p>
                <FormattedMessage id="admin.mcp.empty.body" values={{ code: <code>{EMPTY_SERVERS}</code> }} />
              </p>
              <pre className="mcp-example">{EXAMPLE}</pre>
            </EmptyState>
          ) : (
            <ul className="mcp-list" aria-label={intl.formatMessage({ id: 'admin.mcp.list' })}>
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

function toolsNote(state: McpServer['state']): MessageId {
  if (state === 'ready') return 'admin.mcp.tools.noneAllowed';
  if (state === 'disabled') return 'admin.mcp.tools.disabled';
  return 'admin.mcp.tools.notStarted';
}

function ServerCard({ server, onChanged }: { server: McpServer; onChanged: () => void }) {
  const intl = useIntl();
  const state = STATE[server.state];
  const connect = useAction(async () => {
    const after = await client.call('mcp.servers.connect', { name: server.name });
    if (after.state === 'ready')
      toast.success(
        intl.formatMessage({ id: 'admin.mcp.toast.ready' }, { name: server.name }),
        intl.formatMessage({ id: 'admin.mcp.toast.readyBody' }, { count: after.tools.length }),
      );
    else
      toast.error(
        intl.formatMessage({ id: 'admin.mcp.toast.failed' }, { name: server.name }),
        after.last_error?.message ?? intl.formatMessage({ id: 'admin.mcp.toast.failedBody' }),
      );
    onChanged();
  });
  const headingId = `mcp-${server.name}`;
  return (
    <li className="mcp-server" aria-labelledby={headingId}>
      <div className="mcp-server-header">
        <div className="mcp-server-title">
          <h3 id={headingId}>{server.name}</h3>
          <span className={`badge ${state.tone}`}>
            <FormattedMessage id={state.labelId} />
          </span>
        </div>
        {server.enabled ? (
          <Button
            size="sm"
            onClick={() => void connect.run()}
            busy={connect.busy}
            aria-label={intl.formatMessage({ id: server.state === 'ready' ? 'admin.mcp.restartLabel' : 'admin.mcp.connectLabel' }, { name: server.name })}
          >
            <FormattedMessage id={server.state === 'ready' ? 'admin.mcp.restart' : 'admin.mcp.connect'} />
          </Button>
        ) : null}
      </div>
      <p className="mcp-server-hint">
        <FormattedMessage id={state.hintId} />
      </p>
      <dl className="mcp-facts">
        <div>
          <dt>
            <FormattedMessage id={server.transport === 'stdio' ? 'admin.mcp.fact.program' : 'admin.mcp.fact.endpoint'} />
          </dt>
          <dd>
            <code>{server.target}</code>
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="admin.mcp.fact.timeout" />
          </dt>
          <dd>
            <FormattedMessage id="admin.mcp.fact.seconds" values={{ seconds: server.timeout_seconds }} />
          </dd>
        </div>
        {server.started_at ? (
          <div>
            <dt>
              <FormattedMessage id="admin.mcp.fact.started" />
            </dt>
            <dd>
              <Time iso={server.started_at} />
            </dd>
          </div>
        ) : null}
        {server.restarts > 0 ? (
          <div>
            <dt>
              <FormattedMessage id="admin.mcp.fact.restarts" />
            </dt>
            <dd>{intl.formatNumber(server.restarts)}</dd>
          </div>
        ) : null}
        {server.next_retry_at ? (
          <div>
            <dt>
              <FormattedMessage id="admin.mcp.fact.nextAttempt" />
            </dt>
            <dd>
              <Time iso={server.next_retry_at} />
            </dd>
          </div>
        ) : null}
      </dl>
      {connect.error ? <Alert tone="error">{connect.error}</Alert> : null}
      {server.last_error ? (
        <Alert
          tone={server.state === 'failed' ? 'error' : 'warning'}
          title={intl.formatMessage({ id: server.state === 'failed' ? 'admin.mcp.lastError' : 'admin.mcp.warning' })}
        >
          <p className="mcp-error-text">{server.last_error.message}</p>
          <p className="muted">
            <Time iso={server.last_error.at} />
          </p>
        </Alert>
      ) : null}
      <DataTable
        caption={intl.formatMessage({ id: 'admin.mcp.tools.caption' }, { name: server.name })}
        rows={server.tools}
        rowKey={(tool) => tool.name}
        empty={
          <TableEmpty>
            <FormattedMessage id={toolsNote(server.state)} />
          </TableEmpty>
        }
        name={{
          header: intl.formatMessage({ id: 'admin.mcp.tools.tool' }),
          cell: (tool) => (
            <>
              {tool.name}
              <span className="cell-secondary">
                <code>{tool.qualified_name}</code>
              </span>
            </>
          ),
        }}
        columns={[
          {
            id: 'description',
            header: intl.formatMessage({ id: 'admin.mcp.tools.what' }),
            wrap: true,
            cell: (tool) =>
              tool.description ?? (
                <span className="muted">
                  <FormattedMessage id="admin.mcp.tools.noDescription" />
                </span>
              ),
          },
        ]}
      />
      {server.hidden_tools.length > 0 ? (
        <p className="muted mcp-hidden">
          <FormattedMessage id="admin.mcp.hidden" values={{ count: server.hidden_tools.length, names: server.hidden_tools.join(', ') }} />
        </p>
      ) : null}
    </li>
  );
}
