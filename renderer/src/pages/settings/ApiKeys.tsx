import { useState, type FormEvent } from 'react';
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

type ApiKey = OutputOf<Operations['apiKeys.list']>['data'][number];
type NewKey = OutputOf<Operations['apiKeys.create']>;

/** Whether this browser is signed in with `key`: revoking it ends this session too. */
function isThisBrowsersKey(key: ApiKey): boolean {
  const token = connection.kind === 'browser' ? connection.storedToken() : null;
  return token !== null && token.startsWith(key.prefix);
}

export function ApiKeys() {
  const keys = useLoader(() => client.call('apiKeys.list', {}));
  const signOut = useSession((s) => s.signOut);

  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewKey | null>(null);

  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);

  const create = useAction(async () => {
    if (!name.trim()) throw new Error('Give the key a name, so that you can recognise it later.');
    setRevoked(null);
    setCreated(await client.call('apiKeys.create', { name: name.trim() }));
    setName('');
    keys.reload();
  });

  const revoke = useAction(async (key: ApiKey) => {
    const wasThisBrowsers = isThisBrowsersKey(key);
    await client.call('apiKeys.delete', { id: key.id });
    if (wasThisBrowsers) {
      signOut('You revoked the key this browser was signed in with. Sign in with another key.');
      return;
    }
    setRevoking(null);
    setRevoked(`The key “${key.name}” was revoked. Anything still using it is now refused.`);
    if (created?.id === key.id) setCreated(null);
    keys.reload();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void create.run();
  }

  return (
    <Section
      title="API keys"
      description="Scripts and tools use an API key to call Parley’s HTTP API as you. Anyone holding a key can act as you: keep keys secret, and revoke any you no longer use."
    >
      <form className="inline-form" onSubmit={submit} noValidate>
        <TextField
          label="New key name"
          fieldClassName="inline-form-field"
          placeholder="e.g. Laptop scripts"
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={create.error}
          hint="A name to recognise the key by, such as where it will be used."
        />
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={create.busy}>
          Create key
        </Button>
      </form>

      {created ? (
        <SecretReveal title={`New key “${created.name}”`} secret={created.key} onDone={() => setCreated(null)} />
      ) : null}

      {revoked ? <Alert tone="success">{revoked}</Alert> : null}

      <Loadable state={keys.state} reload={keys.reload} loading="Loading your API keys…" failed="Your API keys could not be loaded">
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
        title={revoking ? `Revoke “${revoking.name}”?` : 'Revoke key?'}
        confirmLabel="Revoke key"
        tone="danger"
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => revoking && void revoke.run(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>Anything using this key is refused from now on. This cannot be undone.</p>
        {revoking && isThisBrowsersKey(revoking) ? (
          <p>
            <strong>This browser is signed in with this key,</strong> so revoking it also signs you out here.
          </p>
        ) : null}
      </ConfirmDialog>
    </Section>
  );
}

function KeyList({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  return (
    <DataTable
      caption="Your API keys"
      rows={keys}
      rowKey={(key) => key.id}
      empty={<TableEmpty icon={<KeyIcon size={18} />}>You have no API keys. Create one above to call Parley from a script.</TableEmpty>}
      name={{
        header: 'Name',
        cell: (key) => (
          <>
            {key.name}
            {isThisBrowsersKey(key) ? <span className="badge badge-accent">This browser</span> : null}
          </>
        ),
      }}
      columns={[
        { id: 'key', header: 'Key', narrow: 'under', cell: (key) => <code className="key-prefix">{key.prefix}…</code> },
        { id: 'created', header: 'Created', narrow: 'hide', cell: (key) => <Time iso={key.created_at} /> },
        { id: 'used', header: 'Last used', narrow: 'hide', cell: (key) => (key.last_used_at ? <Time iso={key.last_used_at} /> : <span className="muted">Never</span>) },
      ]}
      actions={(key) => (
        <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={() => onRevoke(key)}>
          Revoke<span className="visually-hidden"> {key.name}</span>
        </Button>
      )}
    />
  );
}
