import { useState, type FormEvent } from 'react';
import type { Role } from '../../../../shared/operations/common.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { ServiceError, errorText } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { ROLE_LABELS } from '../../app/roles.js';
import type { Me } from '../../app/session.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { PlusIcon } from '../../ui/icons.js';
import { Section } from '../../ui/Page.js';
import { SecretReveal } from '../../ui/SecretReveal.js';
import { Time } from '../../ui/Time.js';
import { useLoader } from '../../ui/useLoader.js';
import { Loadable } from '../../ui/Loadable.js';
import { quotaLeft } from './trial-status.js';
import { UserManager } from './UserManager.js';
import { useBusy } from '../../ui/useBusy.js';

type UserList = OutputOf<Operations['admin.users.list']>;
type Created = OutputOf<Operations['admin.users.create']>;

/** Trial users are onboarded with user tokens, not created here. */
const ASSIGNABLE_ROLES: Role[] = ['member', 'admin', 'super_admin'];

interface FormErrors {
  name?: string;
  email?: string;
  form?: string;
}

/** Field errors of the service (`errors: [{ path }]`) next to the fields they concern. */
function formErrorsOf(error: unknown): FormErrors {
  if (!(error instanceof ServiceError)) return { form: errorText(error) };
  if (error.code === 'conflict') return { email: error.message };
  const out: FormErrors = {};
  for (const e of error.errors ?? []) {
    if (e.path === 'name' || e.path === 'email') out[e.path] ??= e.message;
  }
  return out.name || out.email ? out : { form: error.message };
}

export function Users({ me }: { me: Me }) {
  const users = useLoader(() => client.call('admin.users.list', {}));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [errors, setErrors] = useState<FormErrors>({});
  const { busy, during } = useBusy();
  const [created, setCreated] = useState<Created | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FormErrors = {};
    if (!name.trim()) missing.name = 'Enter the person’s name.';
    if (!email.trim()) missing.email = 'Enter an email address.';
    if (missing.name || missing.email) {
      setErrors(missing);
      return;
    }
    setErrors({});
    try {
      setCreated(await during(() => client.call('admin.users.create', { name: name.trim(), email: email.trim(), role })));
      setName('');
      setEmail('');
      setRole('member');
      users.reload();
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  }

  return (
    <>
      <Section title="Add a user" description={`New users join ${me.user.organization.name} and get a first API key to sign in with.`}>
        <form className="stack-form" onSubmit={(event) => void create(event)} noValidate>
          <div className="form-grid">
            <TextField label="Name" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={errors.name} />
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={errors.email}
            />
            <SelectField
              label="Role"
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
              hint="Super admins manage users and the configuration."
            >
              {ASSIGNABLE_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </SelectField>
          </div>
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <div>
            <Button type="submit" variant="primary" icon={<PlusIcon />} busy={busy}>
              Create user
            </Button>
          </div>
        </form>
        {created ? (
          <SecretReveal title={`First API key for ${created.user.name}`} secret={created.api_key.key} onDone={() => setCreated(null)}>
            <p>
              Give this key to {created.user.name} ({created.user.email}) in a private channel. They sign in with it and can then
              create their own keys.
            </p>
          </SecretReveal>
        ) : null}
      </Section>
      <Section title="Users" description={`Everyone in ${me.user.organization.name}.`}>
        <Loadable state={users.state} reload={users.reload} loading="Loading users…" failed="The users could not be loaded">
          {(list) => <UserTable users={list.data} me={me} reload={users.reload} />}
        </Loadable>
      </Section>
    </>
  );
}

function UserTable({ users, me, reload }: { users: UserList['data']; me: Me; reload: () => void }) {
  const [selected, setSelected] = useState<string | null>(null);
  const current = users.find((u) => u.id === selected) ?? null;
  return (
    <>
      <DataTable
        caption={`Users of ${me.user.organization.name}`}
        className="compact-narrow"
        rows={users}
        rowKey={(user) => user.id}
        isCurrent={(user) => user.id === selected}
        empty={<TableEmpty>No users yet.</TableEmpty>}
        name={{
          header: 'Name',
          cell: (user) => (
            <>
              {user.name}
              {user.id === me.user.id ? <span className="badge">You</span> : null}
              <span className="cell-secondary">{user.email}</span>
            </>
          ),
        }}
        columns={[
          { id: 'role', header: 'Role', narrow: 'under', cell: (user) => ROLE_LABELS[user.role] },
          { id: 'status', header: 'Status', cell: (user) => <UserStatus user={user} /> },
          { id: 'added', header: 'Added', narrow: 'hide', cell: (user) => <Time iso={user.created_at} /> },
        ]}
        actions={(user) => (
          <Button size="sm" aria-expanded={user.id === selected} onClick={() => setSelected(user.id === selected ? null : user.id)}>
            Manage<span className="visually-hidden"> {user.name}</span>
          </Button>
        )}
      />
      {current ? <UserManager user={current} isMe={current.id === me.user.id} onChanged={reload} onClose={() => setSelected(null)} /> : null}
    </>
  );
}

/** Active or disabled; for a trial user also when the token ends and what is left of its quota. */
function UserStatus({ user }: { user: UserList['data'][number] }) {
  const badge = user.disabled ? (
    <span className="badge badge-danger">Disabled</span>
  ) : user.trial?.expired ? (
    <span className="badge badge-danger">Trial ended</span>
  ) : (
    <span className="badge badge-success">Active</span>
  );
  if (!user.trial) return badge;
  return (
    <>
      {badge}
      <span className="cell-secondary">
        {user.trial.expired ? 'Ended ' : 'Until '}
        <Time iso={user.trial.expires_at} />
      </span>
      <span className="cell-secondary">{quotaLeft(user.trial)}</span>
    </>
  );
}
