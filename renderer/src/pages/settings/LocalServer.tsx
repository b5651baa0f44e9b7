import { useId, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
import type { MessageId } from '../../i18n/catalogues/index.js';
import { muted } from './rich.js';

type ServerState = OutputOf<Operations['service.server']>;

type Outcome = { kind: 'saved'; restart: string[] } | { kind: 'failed'; detail: string; port?: string };


function portOf(url: string): number | null {
  const port = new URL(url).port;
  return port ? Number(port) : null;
}

/** Where OpenAI-compatible tools point: the server's `/v1` routes. */
function openAiBaseUrl(url: string): string {
  return `${url}/v1`;
}

/** What the server does now, in words. */
function statusOf(server: ServerState): { labelId: MessageId; tone: 'success' | 'danger' | 'neutral' } {
  if (server.url) return { labelId: 'settings.server.status.on', tone: 'success' };
  if (server.enabled) return { labelId: 'settings.server.status.notListening', tone: 'danger' };
  return { labelId: 'settings.server.status.off', tone: 'neutral' };
}

/** The loopback HTTP server: its address for everyone; on/off and port for super admins. */
export function LocalServer({ canEdit }: { canEdit: boolean }) {
  const intl = useIntl();
  const server = useLoader(() => client.call('service.server', {}));
  return (
    <Section title={intl.formatMessage({ id: 'settings.server.title' })} description={intl.formatMessage({ id: 'settings.server.description' })}>
      <Loadable
        state={server.state}
        reload={server.reload}
        loading={intl.formatMessage({ id: 'settings.server.loading' })}
        failed={intl.formatMessage({ id: 'settings.server.loadFailed' })}
      >
        {(state) => (
          <>
            <ServerDetails server={state} />
            {canEdit ? (
              <ServerForm server={state} onSaved={server.reload} />
            ) : (
              <p className="muted">
                <FormattedMessage id="settings.server.superAdminsOnly" />
              </p>
            )}
          </>
        )}
      </Loadable>
    </Section>
  );
}

function ServerDetails({ server }: { server: ServerState }) {
  const intl = useIntl();
  const status = statusOf(server);
  const runningPort = server.url ? portOf(server.url) : null;
  return (
    <>
      {server.problem ? (
        <Alert tone="warning" title={intl.formatMessage({ id: 'settings.server.problemTitle' })}>
          {server.problem}
        </Alert>
      ) : null}
      <dl className="details server-details">
        <div>
          <dt>
            <FormattedMessage id="settings.server.statusLabel" />
          </dt>
          <dd>
            <span className={`badge badge-${status.tone}`}>{intl.formatMessage({ id: status.labelId })}</span>
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="settings.server.address" />
          </dt>
          <dd>
            {server.url ? (
              <code className="key-prefix">{server.url}</code>
            ) : (
              <span className="muted">
                <FormattedMessage id="settings.server.noAddress" />
              </span>
            )}
          </dd>
        </div>
        {server.url ? (
          <div>
            <dt>
              <FormattedMessage id="settings.server.baseUrl" />
            </dt>
            <dd>
              <code className="key-prefix">{openAiBaseUrl(server.url)}</code>
            </dd>
          </div>
        ) : null}
        {server.mode === 'served' && runningPort !== null && server.port !== 0 && runningPort !== server.port ? (
          <div>
            <dt>
              <FormattedMessage id="settings.server.savedPort" />
            </dt>
            <dd>
              <FormattedMessage id="settings.server.savedPortNote" values={{ port: server.port, muted }} />
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

function ServerForm({ server, onSaved }: { server: ServerState; onSaved: () => void }) {
  const intl = useIntl();
  const [enabled, setEnabled] = useState(server.enabled);
  const [port, setPort] = useState(String(server.port));
  const { busy, during } = useBusy();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const checkboxId = useId();
  const served = server.mode === 'served';
  const parsedPort = /^\d{1,5}$/.test(port.trim()) ? Number(port.trim()) : NaN;
  const portError = Number.isInteger(parsedPort) && parsedPort <= 65535 ? null : intl.formatMessage({ id: 'settings.server.portInvalid' });
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
        <FormattedMessage id="settings.server.serve" />
      </label>
      {served ? (
        <p className="field-hint" id={`${checkboxId}-hint`}>
          <FormattedMessage id="settings.server.servedHint" />
        </p>
      ) : null}
      <TextField
        label={intl.formatMessage({ id: 'settings.server.port' })}
        inputMode="numeric"
        value={port}
        onChange={(event) => setPort(event.target.value)}
        error={outcome?.kind === 'failed' && outcome.port ? outcome.port : port.trim() === '' ? null : portError}
        hint={intl.formatMessage({ id: 'settings.server.portHint' })}
        className="port-input"
      />
      {outcome?.kind === 'saved' ? (
        outcome.restart.length ? (
          <Alert tone="warning" title={intl.formatMessage({ id: 'settings.server.saved' })}>
            <FormattedMessage id="settings.server.restartNeeded" />
          </Alert>
        ) : (
          <Alert tone="success" title={intl.formatMessage({ id: 'settings.server.saved' })}>
            <FormattedMessage id="settings.server.applied" />
          </Alert>
        )
      ) : null}
      {outcome?.kind === 'failed' && !outcome.port ? (
        <Alert tone="error" title={intl.formatMessage({ id: 'settings.server.notSaved' })}>
          {outcome.detail}
        </Alert>
      ) : null}
      <div>
        <Button type="submit" variant="primary" busy={busy} disabled={!changed || Boolean(portError)}>
          <FormattedMessage id="settings.server.save" />
        </Button>
      </div>
    </form>
  );
}
