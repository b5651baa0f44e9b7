import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client, connection } from '../../api/index.js';
import { useSession } from '../../app/store.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { TextField } from '../../ui/Field.js';
import { KeyIcon, PlusIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { SecretReveal } from '../../ui/SecretReveal.js';
import { Time } from '../../ui/Time.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { hidden, strong } from './rich.js';

type ApiKey = OutputOf<Operations['apiKeys.list']>['data'][number];
type NewKey = OutputOf<Operations['apiKeys.create']>;

/** Whether this browser is signed in with `key`: revoking it ends this session too. */
function isThisBrowsersKey(key: ApiKey): boolean {
  const token = connection.kind === 'browser' ? connection.storedToken() : null;
  return token !== null && token.startsWith(key.prefix);
}

export function ApiKeys() {
  const intl = useIntl();
  const keys = useLoader(() => client.call('apiKeys.list', {}));
  const signOut = useSession((s) => s.signOut);

  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewKey | null>(null);

  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);

  const create = useAction(async () => {
    if (!name.trim()) throw new Error(intl.formatMessage({ id: 'settings.apiKeys.nameMissing' }));
    setRevoked(null);
    setCreated(await client.call('apiKeys.create', { name: name.trim() }));
    setName('');
    keys.reload();
  });

  const revoke = useAction(async (key: ApiKey) => {
    const wasThisBrowsers = isThisBrowsersKey(key);
    await client.call('apiKeys.delete', { id: key.id });
    if (wasThisBrowsers) {
      signOut(intl.formatMessage({ id: 'settings.apiKeys.signedOut' }));
      return;
    }
    setRevoking(null);
    setRevoked(intl.formatMessage({ id: 'settings.apiKeys.revoked' }, { name: key.name }));
    if (created?.id === key.id) setCreated(null);
    keys.reload();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void create.run();
  }

  return (
    <Section
      title={intl.formatMessage({ id: 'settings.apiKeys.title' })}
      description={intl.formatMessage({ id: 'settings.apiKeys.description' })}
    >
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label={intl.formatMessage({ id: 'settings.apiKeys.newName' })}
          fieldClassName="inline-form-field"
          placeholder={intl.formatMessage({ id: 'settings.apiKeys.newNamePlaceholder' })}
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={create.error}
          hint={intl.formatMessage({ id: 'settings.apiKeys.newNameHint' })}
        />
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={create.busy}>
          <FormattedMessage id="settings.apiKeys.create" />
        </Button>
      </form>

      {created ? (
        <SecretReveal title={intl.formatMessage({ id: 'settings.apiKeys.newKeyTitle' }, { name: created.name })} secret={created.key} onDone={() => setCreated(null)} />
      ) : null}

      {revoked ? <Alert tone="success">{revoked}</Alert> : null}

      <Loadable state={keys.state} reload={keys.reload} loading={intl.formatMessage({ id: 'settings.apiKeys.loading' })} failed={intl.formatMessage({ id: 'settings.apiKeys.loadFailed' })}>
        {(list) => (
          <KeyList
            keys={list.data}
            onRevoke={(key) => {
              revoke.reset();
              setRevoking(key);
            }}
          />
        )}
      </Loadable>

      <ConfirmDialog
        open={revoking !== null}
        title={revoking ? intl.formatMessage({ id: 'settings.apiKeys.revokeTitle' }, { name: revoking.name }) : intl.formatMessage({ id: 'settings.apiKeys.revokeTitleUnnamed' })}
        confirmLabel={intl.formatMessage({ id: 'settings.apiKeys.revokeConfirm' })}
        tone="danger"
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => revoking && void revoke.run(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          <FormattedMessage id="settings.apiKeys.revokeBody" />
        </p>
        {revoking && isThisBrowsersKey(revoking) ? (
          <p>
            <FormattedMessage id="settings.apiKeys.revokeThisBrowser" values={{ b: strong }} />
          </p>
        ) : null}
      </ConfirmDialog>
    </Section>
  );
}

function KeyList({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const intl = useIntl();
  return (
    <DataTable
      caption={intl.formatMessage({ id: 'settings.apiKeys.caption' })}
      rows={keys}
      rowKey={(key) => key.id}
      empty={
        <TableEmpty icon={<KeyIcon size={18} />}>
          <FormattedMessage id="settings.apiKeys.empty" />
        </TableEmpty>
      }
      name={{
        header: intl.formatMessage({ id: 'settings.apiKeys.column.name' }),
        cell: (key) => (
          <>
            {key.name}
            {isThisBrowsersKey(key) ? (
              <span className="badge badge-accent">
                <FormattedMessage id="settings.apiKeys.thisBrowser" />
              </span>
            ) : null}
          </>
        ),
      }}
      columns={[
        {
          id: 'key',
          header: intl.formatMessage({ id: 'settings.apiKeys.column.key' }),
          narrow: 'under',
          cell: (key) => <code className="key-prefix">{intl.formatMessage({ id: 'settings.apiKeys.prefix' }, { prefix: key.prefix })}</code>,
        },
        { id: 'created', header: intl.formatMessage({ id: 'settings.apiKeys.column.created' }), narrow: 'hide', cell: (key) => <Time iso={key.created_at} /> },
        {
          id: 'used',
          header: intl.formatMessage({ id: 'settings.apiKeys.column.lastUsed' }),
          narrow: 'hide',
          cell: (key) =>
            key.last_used_at ? (
              <Time iso={key.last_used_at} />
            ) : (
              <span className="muted">
                <FormattedMessage id="settings.apiKeys.never" />
              </span>
            ),
        },
      ]}
      actions={(key) => (
        <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={() => onRevoke(key)}>
          <FormattedMessage id="settings.apiKeys.revoke" values={{ name: key.name, hidden }} />
        </Button>
      )}
    />
  );
}
