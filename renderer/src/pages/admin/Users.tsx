import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { Role } from '../../../../shared/operations/common.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { ServiceError } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { roleLabel } from '../../app/roles.js';
import type { Me } from '../../app/session.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { PlusIcon } from '../../ui/icons.js';
import { Section } from '../../ui/Page.js';
import { SecretReveal } from '../../ui/SecretReveal.js';
import { Time } from '../../ui/Time.js';
import { errorText } from '../../ui/error-text.js';
import { useLoader } from '../../ui/useLoader.js';
import { Loadable } from '../../ui/Loadable.js';
import { quotaLeft, trialValidity } from './trial-status.js';
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

/** Field errors of the service (`errors: [{ path }]`) next to the fields they concern; the rest worded by its code. */
function formErrorsOf(error: unknown, intl: IntlShape): FormErrors {
  if (!(error instanceof ServiceError)) return { form: errorText(error, intl) };
  if (error.code === 'conflict') return { email: errorText(error, intl) };
  const out: FormErrors = {};
  for (const e of error.errors ?? []) {
    if (e.path === 'name' || e.path === 'email') out[e.path] ??= e.message;
  }
  return out.name || out.email ? out : { form: errorText(error, intl) };
}

export function Users({ me }: { me: Me }) {
  const intl = useIntl();
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
    if (!name.trim()) missing.name = intl.formatMessage({ id: 'admin.users.nameRequired' });
    if (!email.trim()) missing.email = intl.formatMessage({ id: 'admin.users.emailRequired' });
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
      setErrors(formErrorsOf(error, intl));
    }
  }

  return (
    <>
      <Section
        title={intl.formatMessage({ id: 'admin.users.add.title' })}
        description={intl.formatMessage({ id: 'admin.users.add.description' }, { organization: me.user.organization.name })}
      >
        <form className="stack-form" onSubmit={(event) => void create(event)} noValidate>
          <div className="form-grid">
            <TextField
              label={intl.formatMessage({ id: 'admin.users.field.name' })}
              autoComplete="off"
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={errors.name}
            />
            <TextField
              label={intl.formatMessage({ id: 'admin.users.field.email' })}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={errors.email}
            />
            <SelectField
              label={intl.formatMessage({ id: 'admin.users.field.role' })}
              value={role}
              onChange={(event) => setRole(event.target.value as Role)}
              hint={intl.formatMessage({ id: 'admin.users.field.roleHint' })}
            >
              {ASSIGNABLE_ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r, intl)}
                </option>
              ))}
            </SelectField>
          </div>
          {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
          <div>
            <Button type="submit" variant="primary" icon={<PlusIcon />} busy={busy}>
              <FormattedMessage id="admin.users.create" />
            </Button>
          </div>
        </form>
        {created ? (
          <SecretReveal
            title={intl.formatMessage({ id: 'admin.users.firstKey.title' }, { name: created.user.name })}
            secret={created.api_key.key}
            onDone={() => setCreated(null)}
          >
            <p>
              <FormattedMessage id="admin.users.firstKey.body" values={{ name: created.user.name, email: created.user.email }} />
            </p>
          </SecretReveal>
        ) : null}
      </Section>
      <Section
        title={intl.formatMessage({ id: 'admin.users.list.title' })}
        description={intl.formatMessage({ id: 'admin.users.list.description' }, { organization: me.user.organization.name })}
      >
        <Loadable
          state={users.state}
          reload={users.reload}
          loading={intl.formatMessage({ id: 'admin.users.list.loading' })}
          failed={intl.formatMessage({ id: 'admin.users.list.loadFailed' })}
        >
          {(list) => <UserTable users={list.data} me={me} reload={users.reload} />}
        </Loadable>
      </Section>
    </>
  );
}

function UserTable({ users, me, reload }: { users: UserList['data']; me: Me; reload: () => void }) {
  const intl = useIntl();
  const [selected, setSelected] = useState<string | null>(null);
  const current = users.find((u) => u.id === selected) ?? null;
  return (
    <>
      <DataTable
        caption={intl.formatMessage({ id: 'admin.users.table.caption' }, { organization: me.user.organization.name })}
        className="compact-narrow"
        rows={users}
        rowKey={(user) => user.id}
        isCurrent={(user) => user.id === selected}
        empty={
          <TableEmpty>
            <FormattedMessage id="admin.users.table.empty" />
          </TableEmpty>
        }
        name={{
          header: intl.formatMessage({ id: 'admin.users.table.name' }),
          cell: (user) => (
            <>
              {user.name}
              {user.id === me.user.id ? (
                <span className="badge">
                  <FormattedMessage id="admin.users.table.you" />
                </span>
              ) : null}
              <span className="cell-secondary">{user.email}</span>
            </>
          ),
        }}
        columns={[
          { id: 'role', header: intl.formatMessage({ id: 'admin.users.table.role' }), narrow: 'under', cell: (user) => roleLabel(user.role, intl) },
          { id: 'status', header: intl.formatMessage({ id: 'admin.users.table.status' }), cell: (user) => <UserStatus user={user} /> },
          { id: 'added', header: intl.formatMessage({ id: 'admin.users.table.added' }), narrow: 'hide', cell: (user) => <Time iso={user.created_at} /> },
        ]}
        actions={(user) => (
          <Button size="sm" aria-expanded={user.id === selected} onClick={() => setSelected(user.id === selected ? null : user.id)}>
            <FormattedMessage
              id="admin.users.table.manage"
              values={{ name: user.name, hidden: (chunks) => <span className="visually-hidden">{chunks}</span> }}
            />
          </Button>
        )}
      />
      {current ? <UserManager user={current} isMe={current.id === me.user.id} onChanged={reload} onClose={() => setSelected(null)} /> : null}
    </>
  );
}

/** Active or disabled; for a trial user also when the token ends and what is left of its quota. */
function UserStatus({ user }: { user: UserList['data'][number] }) {
  const intl = useIntl();
  const badge = user.disabled ? (
    <span className="badge badge-danger">
      <FormattedMessage id="admin.users.status.disabled" />
    </span>
  ) : user.trial?.expired ? (
    <span className="badge badge-danger">
      <FormattedMessage id="admin.users.status.trialEnded" />
    </span>
  ) : (
    <span className="badge badge-success">
      <FormattedMessage id="admin.users.status.active" />
    </span>
  );
  if (!user.trial) return badge;
  return (
    <>
      {badge}
      <span className="cell-secondary">
        {user.trial.expired ? (
          <FormattedMessage id="admin.users.status.ended" values={{ time: <Time iso={user.trial.expires_at} /> }} />
        ) : (
          trialValidity(user.trial.expires_at, intl)
        )}
      </span>
      <span className="cell-secondary">{quotaLeft(user.trial, intl)}</span>
    </>
  );
}
