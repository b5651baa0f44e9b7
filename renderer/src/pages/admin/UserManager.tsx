import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/operations/common.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { ROLE_LABELS } from '../../app/roles.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { KeyIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { SecretReveal } from '../../ui/SecretReveal.js';
import { Time } from '../../ui/Time.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { quotaLeft } from './trial-status.js';

type AdminUser = OutputOf<Operations['admin.users.list']>['data'][number];
type ApiKey = OutputOf<Operations['admin.users.apiKeys.list']>['data'][number];
type IssuedKey = OutputOf<Operations['admin.users.apiKeys.create']>;

/** A trial stays a trial (its token bounds it); anyone else may become any role but trial. */
const rolesFor = (user: AdminUser): Role[] => (user.role === 'trial' ? ['trial', 'member', 'admin', 'super_admin'] : ['member', 'admin', 'super_admin']);

/**
 * Everything a super admin does to one user: change the role, disable or enable, see their API
 * keys and revoke them, issue a new key; a trial user's token expiry and remaining quota.
 */
export function UserManager({ user, isMe, onChanged, onClose }: { user: AdminUser; isMe: boolean; onChanged: () => void; onClose: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [role, setRole] = useState<Role>(user.role);
  const [confirmDisable, setConfirmDisable] = useState(false);
  const keys = useLoader(() => client.call('admin.users.apiKeys.list', { id: user.id }));

  useEffect(() => {
    setRole(user.role);
  }, [user.id, user.role]);
  useEffect(() => {
    heading.current?.focus();
  }, [user.id]);

  const saveRole = useAction(async () => {
    await client.call('admin.users.update', { id: user.id, role });
    onChanged();
  });
  const setDisabled = useAction(async (disabled: boolean) => {
    await client.call('admin.users.update', { id: user.id, disabled });
    setConfirmDisable(false);
    onChanged();
  });

  return (
    <section className="user-manager" aria-labelledby={headingId}>
      <div className="user-manager-header">
        <div>
          <h3 id={headingId} ref={heading} tabIndex={-1}>
            Manage {user.name}
          </h3>
          <p className="muted">{user.email}</p>
        </div>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>

      {user.trial ? (
        <p className="user-manager-trial">
          <span className={`badge ${user.trial.expired ? 'badge-danger' : 'badge-warning'}`}>{user.trial.expired ? 'Trial ended' : 'Trial'}</span>{' '}
          {user.trial.expired ? 'Token expired ' : 'Token expires '}
          <Time iso={user.trial.expires_at} />. {quotaLeft(user.trial)}.
        </p>
      ) : null}

      <div className="user-manager-grid">
        <form
          className="user-manager-role"
          aria-label={`Role of ${user.name}`}
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            void saveRole.run();
          }}
        >
          <SelectField
            label="Role"
            value={role}
            disabled={isMe}
            onChange={(event) => setRole(event.target.value as Role)}
            hint={isMe ? 'You cannot change your own role.' : role === 'trial' ? 'Trial users are bounded by their token.' : undefined}
          >
            {rolesFor(user).map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={isMe || role === user.role} busy={saveRole.busy}>
            Save role
          </Button>
          {saveRole.error ? <Alert tone="error">{saveRole.error}</Alert> : null}
        </form>

        <div className="user-manager-access">
          <p className="field-label">Access</p>
          {user.disabled ? (
            <>
              <p className="muted">Disabled: none of their keys or tokens work.</p>
              <Button onClick={() => void setDisabled.run(false)} busy={setDisabled.busy}>
                Enable {user.name}
              </Button>
            </>
          ) : (
            <>
              <p className="muted">{isMe ? 'You cannot disable yourself.' : 'Active: they can sign in.'}</p>
              <Button variant="danger" disabled={isMe} onClick={() => setConfirmDisable(true)}>
                Disable {user.name}
              </Button>
            </>
          )}
          {setDisabled.error && !confirmDisable ? <Alert tone="error">{setDisabled.error}</Alert> : null}
        </div>
      </div>

      <h4 className="user-manager-subheading">API keys</h4>
      {user.role === 'trial' ? (
        <p className="muted">Trial users sign in with their user token and cannot hold API keys.</p>
      ) : (
        <>
          <Loadable state={keys.state} reload={keys.reload} loading="Loading keys…" failed="The keys could not be loaded">
            {(list) => <KeyTable keys={list.data} user={user} onRevoked={keys.reload} />}
          </Loadable>
          <IssueKey user={user} onIssued={keys.reload} />
        </>
      )}

      <ConfirmDialog
        open={confirmDisable}
        title={`Disable ${user.name}?`}
        confirmLabel="Disable"
        tone="danger"
        busy={setDisabled.busy}
        error={setDisabled.error}
        onConfirm={() => void setDisabled.run(true)}
        onCancel={() => {
          setConfirmDisable(false);
          setDisabled.reset();
        }}
      >
        <p>
          {user.name} will be signed out everywhere: every API key and token of theirs stops working at once. Their threads and datasets are kept, and you can
          enable them again.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function KeyTable({ keys, user, onRevoked }: { keys: ApiKey[]; user: AdminUser; onRevoked: () => void }) {
  const [target, setTarget] = useState<ApiKey | null>(null);
  const revoke = useAction(async (key: ApiKey) => {
    await client.call('admin.users.apiKeys.delete', { id: user.id, key_id: key.id });
    setTarget(null);
    onRevoked();
  });
  return (
    <>
      <DataTable
        caption={`API keys of ${user.name}`}
        rows={keys}
        rowKey={(key) => key.id}
        empty={<TableEmpty icon={<KeyIcon size={18} />}>No API keys: {user.name} cannot sign in until you issue one.</TableEmpty>}
        name={{ header: 'Name', cell: (key) => key.name }}
        columns={[
          { id: 'key', header: 'Key', narrow: 'under', cell: (key) => <code className="key-prefix">{key.prefix}…</code> },
          { id: 'created', header: 'Created', narrow: 'hide', cell: (key) => <Time iso={key.created_at} /> },
          { id: 'used', header: 'Last used', narrow: 'hide', cell: (key) => (key.last_used_at ? <Time iso={key.last_used_at} /> : <span className="muted">Never</span>) },
        ]}
        actions={(key) => (
          <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={() => setTarget(key)} aria-label={`Revoke the key ${key.name} (${key.prefix}…)`}>
            Revoke
          </Button>
        )}
      />
      <ConfirmDialog
        open={target !== null}
        title={`Revoke “${target?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        tone="danger"
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => target && void revoke.run(target)}
        onCancel={() => {
          setTarget(null);
          revoke.reset();
        }}
      >
        <p>
          The key {target?.prefix}… stops working at once; whatever uses it is signed out. {user.name}’s other keys keep working.
        </p>
      </ConfirmDialog>
    </>
  );
}

function IssueKey({ user, onIssued }: { user: AdminUser; onIssued: () => void }) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const issue = useAction(async () => {
    setIssued(await client.call('admin.users.apiKeys.create', { id: user.id, name: name.trim() }));
    setName('');
    onIssued();
  });
  return (
    <>
      <form
        className="user-manager-issue"
        aria-label={`Issue a key for ${user.name}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const missing = name.trim() ? null : 'Name the key, e.g. “Laptop” or “Replacement”.';
          setNameError(missing);
          if (!missing) void issue.run();
        }}
      >
        <TextField label="New key name" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={nameError} />
        <Button type="submit" icon={<KeyIcon />} busy={issue.busy}>
          Issue key
        </Button>
      </form>
      {issue.error ? <Alert tone="error">{issue.error}</Alert> : null}
      {issued ? (
        <SecretReveal title={`New API key for ${user.name}`} secret={issued.key} onDone={() => setIssued(null)}>
          <p>Give this key to {user.name} in a private channel. It is shown only now.</p>
        </SecretReveal>
      ) : null}
    </>
  );
}
