import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Role } from '../../../../shared/operations/common.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { roleLabel } from '../../app/roles.js';
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
import { EndTrial } from './EndTrial.js';
import { quotaLeft } from './trial-status.js';

type AdminUser = OutputOf<Operations['admin.users.list']>['data'][number];
type ApiKey = OutputOf<Operations['admin.users.apiKeys.list']>['data'][number];
type IssuedKey = OutputOf<Operations['admin.users.apiKeys.create']>;

/** A key is shown by its first characters, an ellipsis marking the rest. */
const shownPrefix = (prefix: string): string => `${prefix}…`;

/** A trial stays a trial (its token bounds it); anyone else may become any role but trial. */
const rolesFor = (user: AdminUser): Role[] => (user.role === 'trial' ? ['trial', 'member', 'admin', 'super_admin'] : ['member', 'admin', 'super_admin']);

/**
 * Everything a super admin does to one user: change the role, disable or enable, see their API
 * keys and revoke them, issue a new key; a trial user's token expiry and remaining quota.
 */
export function UserManager({ user, isMe, onChanged, onClose }: { user: AdminUser; isMe: boolean; onChanged: () => void; onClose: () => void }) {
  const intl = useIntl();
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
            <FormattedMessage id="admin.userManager.heading" values={{ name: user.name }} />
          </h3>
          <p className="muted">{user.email}</p>
        </div>
        <Button size="sm" variant="ghost" onClick={onClose}>
          <FormattedMessage id="admin.userManager.close" />
        </Button>
      </div>

      {user.trial ? (
        <p className="user-manager-trial">
          <FormattedMessage
            id={user.trial.expired ? 'admin.userManager.tokenExpired' : 'admin.userManager.tokenExpires'}
            values={{
              badge: (
                <span className={`badge ${user.trial.expired ? 'badge-danger' : 'badge-warning'}`}>
                  <FormattedMessage id={user.trial.expired ? 'admin.userManager.trialEnded' : 'admin.userManager.trial'} />
                </span>
              ),
              time: <Time iso={user.trial.expires_at} />,
              quota: quotaLeft(user.trial, intl),
            }}
          />
        </p>
      ) : null}
      {user.trial && !user.trial.expired ? (
        <div className="user-manager-trial-actions">
          <EndTrial user={user} onEnded={onChanged} />
        </div>
      ) : null}

      <div className="user-manager-grid">
        <form
          className="user-manager-role"
          aria-label={intl.formatMessage({ id: 'admin.userManager.roleForm' }, { name: user.name })}
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            void saveRole.run();
          }}
        >
          <SelectField
            label={intl.formatMessage({ id: 'admin.userManager.role' })}
            value={role}
            disabled={isMe}
            onChange={(event) => setRole(event.target.value as Role)}
            hint={
              isMe
                ? intl.formatMessage({ id: 'admin.userManager.roleOwn' })
                : role === 'trial'
                  ? intl.formatMessage({ id: 'admin.userManager.roleTrial' })
                  : undefined
            }
          >
            {rolesFor(user).map((r) => (
              <option key={r} value={r}>
                {roleLabel(r, intl)}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={isMe || role === user.role} busy={saveRole.busy}>
            <FormattedMessage id="admin.userManager.saveRole" />
          </Button>
          {saveRole.error ? <Alert tone="error">{saveRole.error}</Alert> : null}
        </form>

        <div className="user-manager-access">
          <p className="field-label">
            <FormattedMessage id="admin.userManager.access" />
          </p>
          {user.disabled ? (
            <>
              <p className="muted">
                <FormattedMessage id="admin.userManager.disabledNote" />
              </p>
              <Button onClick={() => void setDisabled.run(false)} busy={setDisabled.busy}>
                <FormattedMessage id="admin.userManager.enable" values={{ name: user.name }} />
              </Button>
            </>
          ) : (
            <>
              <p className="muted">
                <FormattedMessage id={isMe ? 'admin.userManager.selfNote' : 'admin.userManager.activeNote'} />
              </p>
              <Button variant="danger" disabled={isMe} onClick={() => setConfirmDisable(true)}>
                <FormattedMessage id="admin.userManager.disable" values={{ name: user.name }} />
              </Button>
            </>
          )}
          {setDisabled.error && !confirmDisable ? <Alert tone="error">{setDisabled.error}</Alert> : null}
        </div>
      </div>

      <h4 className="user-manager-subheading">
        <FormattedMessage id="admin.userManager.apiKeys" />
      </h4>
      {user.role === 'trial' ? (
        <p className="muted">
          <FormattedMessage id="admin.userManager.trialNoKeys" />
        </p>
      ) : (
        <>
          <Loadable
            state={keys.state}
            reload={keys.reload}
            loading={intl.formatMessage({ id: 'admin.userManager.keysLoading' })}
            failed={intl.formatMessage({ id: 'admin.userManager.keysLoadFailed' })}
          >
            {(list) => <KeyTable keys={list.data} user={user} onRevoked={keys.reload} />}
          </Loadable>
          <IssueKey user={user} onIssued={keys.reload} />
        </>
      )}

      <ConfirmDialog
        open={confirmDisable}
        title={intl.formatMessage({ id: 'admin.userManager.disableTitle' }, { name: user.name })}
        confirmLabel={intl.formatMessage({ id: 'admin.userManager.disableConfirm' })}
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
          <FormattedMessage id="admin.userManager.disableBody" values={{ name: user.name }} />
        </p>
      </ConfirmDialog>
    </section>
  );
}

function KeyTable({ keys, user, onRevoked }: { keys: ApiKey[]; user: AdminUser; onRevoked: () => void }) {
  const intl = useIntl();
  const [target, setTarget] = useState<ApiKey | null>(null);
  const revoke = useAction(async (key: ApiKey) => {
    await client.call('admin.users.apiKeys.delete', { id: user.id, key_id: key.id });
    setTarget(null);
    onRevoked();
  });
  return (
    <>
      <DataTable
        caption={intl.formatMessage({ id: 'admin.userManager.keys.caption' }, { name: user.name })}
        rows={keys}
        rowKey={(key) => key.id}
        empty={
          <TableEmpty icon={<KeyIcon size={18} />}>
            <FormattedMessage id="admin.userManager.keys.empty" values={{ name: user.name }} />
          </TableEmpty>
        }
        name={{ header: intl.formatMessage({ id: 'admin.userManager.keys.name' }), cell: (key) => key.name }}
        columns={[
          { id: 'key', header: intl.formatMessage({ id: 'admin.userManager.keys.key' }), narrow: 'under', cell: (key) => <code className="key-prefix">{shownPrefix(key.prefix)}</code> },
          { id: 'created', header: intl.formatMessage({ id: 'admin.userManager.keys.created' }), narrow: 'hide', cell: (key) => <Time iso={key.created_at} /> },
          {
            id: 'used',
            header: intl.formatMessage({ id: 'admin.userManager.keys.lastUsed' }),
            narrow: 'hide',
            cell: (key) =>
              key.last_used_at ? (
                <Time iso={key.last_used_at} />
              ) : (
                <span className="muted">
                  <FormattedMessage id="admin.userManager.keys.never" />
                </span>
              ),
          },
        ]}
        actions={(key) => (
          <Button
            size="sm"
            variant="ghost"
            className="btn-danger-ghost"
            onClick={() => setTarget(key)}
            aria-label={intl.formatMessage({ id: 'admin.userManager.keys.revokeLabel' }, { name: key.name, prefix: key.prefix })}
          >
            <FormattedMessage id="admin.userManager.keys.revoke" />
          </Button>
        )}
      />
      <ConfirmDialog
        open={target !== null}
        title={intl.formatMessage({ id: 'admin.userManager.keys.revokeTitle' }, { name: target?.name ?? '' })}
        confirmLabel={intl.formatMessage({ id: 'admin.userManager.keys.revokeConfirm' })}
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
          <FormattedMessage id="admin.userManager.keys.revokeBody" values={{ prefix: target?.prefix ?? '', name: user.name }} />
        </p>
      </ConfirmDialog>
    </>
  );
}

function IssueKey({ user, onIssued }: { user: AdminUser; onIssued: () => void }) {
  const intl = useIntl();
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
        aria-label={intl.formatMessage({ id: 'admin.userManager.issue.form' }, { name: user.name })}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const missing = name.trim() ? null : intl.formatMessage({ id: 'admin.userManager.issue.nameRequired' });
          setNameError(missing);
          if (!missing) void issue.run();
        }}
      >
        <TextField
          label={intl.formatMessage({ id: 'admin.userManager.issue.name' })}
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
        <Button type="submit" icon={<KeyIcon />} busy={issue.busy}>
          <FormattedMessage id="admin.userManager.issue.submit" />
        </Button>
      </form>
      {issue.error ? <Alert tone="error">{issue.error}</Alert> : null}
      {issued ? (
        <SecretReveal title={intl.formatMessage({ id: 'admin.userManager.issue.revealTitle' }, { name: user.name })} secret={issued.key} onDone={() => setIssued(null)}>
          <p>
            <FormattedMessage id="admin.userManager.issue.revealBody" values={{ name: user.name }} />
          </p>
        </SecretReveal>
      ) : null}
    </>
  );
}
