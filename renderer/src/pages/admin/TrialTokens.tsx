import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { KeyIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { SecretReveal } from '../../ui/SecretReveal.js';
import { Time } from '../../ui/Time.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { quotaLeft, trialValidity } from './trial-status.js';

type Issued = OutputOf<Operations['admin.userTokens.create']>;

/** How long a token may last, in days. */
const EXPIRY_DAYS = [1, 7, 30, 90] as const;
/** The largest quota the service accepts. */
const MAX_QUOTA = 1_000_000;

/** Issues user tokens (`ut_…`) that let someone try Parley as a trial user, for a while and a number of requests. */
export function TrialTokens() {
  const intl = useIntl();
  const users = useLoader(() => client.call('admin.users.list', {}));
  const [email, setEmail] = useState('');
  const [expiresIn, setExpiresIn] = useState<number>(7 * 86_400);
  const [quota, setQuota] = useState('');
  const [quotaError, setQuotaError] = useState<string | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);
  const issue = useAction(async () => {
    const result = await client.call('admin.userTokens.create', {
      expires_in: expiresIn,
      ...(email.trim() ? { email: email.trim() } : {}),
      ...(quota.trim() ? { quota: Number(quota) } : {}),
    });
    setIssued(result);
    setEmail('');
    setQuota('');
    users.reload();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = quota.trim();
    const bad = q !== '' && !(/^\d+$/.test(q) && Number(q) >= 1 && Number(q) <= MAX_QUOTA);
    setQuotaError(bad ? intl.formatMessage({ id: 'admin.trial.quotaInvalid' }, { min: 1, max: MAX_QUOTA }) : null);
    if (!bad) void issue.run();
  }

  return (
    <>
      <Section title={intl.formatMessage({ id: 'admin.trial.issue.title' })} description={intl.formatMessage({ id: 'admin.trial.issue.description' })}>
        <form className="stack-form" aria-label={intl.formatMessage({ id: 'admin.trial.issue.title' })} onSubmit={submit} noValidate>
          <div className="form-grid">
            <TextField
              label={intl.formatMessage({ id: 'admin.trial.field.email' })}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              hint={intl.formatMessage({ id: 'admin.trial.field.emailHint' })}
            />
            <SelectField label={intl.formatMessage({ id: 'admin.trial.field.expires' })} value={expiresIn} onChange={(event) => setExpiresIn(Number(event.target.value))}>
              {EXPIRY_DAYS.map((days) => (
                <option key={days} value={days * 86_400}>
                  {intl.formatMessage({ id: 'admin.trial.expiresDays' }, { days })}
                </option>
              ))}
            </SelectField>
            <TextField
              label={intl.formatMessage({ id: 'admin.trial.field.quota' })}
              inputMode="numeric"
              autoComplete="off"
              value={quota}
              onChange={(event) => setQuota(event.target.value)}
              error={quotaError}
              hint={intl.formatMessage({ id: 'admin.trial.field.quotaHint' })}
            />
          </div>
          {issue.error ? <Alert tone="error">{issue.error}</Alert> : null}
          <div>
            <Button type="submit" variant="primary" icon={<KeyIcon />} busy={issue.busy}>
              <FormattedMessage id="admin.trial.issue.submit" />
            </Button>
          </div>
        </form>
        {issued ? (
          <SecretReveal title={intl.formatMessage({ id: 'admin.trial.issued.title' }, { email: issued.user.email })} secret={issued.token} onDone={() => setIssued(null)}>
            <p>
              {issued.quota === null ? (
                <FormattedMessage id="admin.trial.issued.bodyUnlimited" values={{ validity: <time dateTime={issued.expires_at}>{trialValidity(issued.expires_at, intl)}</time> }} />
              ) : (
                <FormattedMessage
                  id="admin.trial.issued.bodyQuota"
                  values={{ validity: <time dateTime={issued.expires_at}>{trialValidity(issued.expires_at, intl)}</time>, quota: issued.quota }}
                />
              )}
            </p>
          </SecretReveal>
        ) : null}
      </Section>
      <Section title={intl.formatMessage({ id: 'admin.trial.users.title' })}>
        <Loadable
          state={users.state}
          reload={users.reload}
          loading={intl.formatMessage({ id: 'admin.trial.users.loading' })}
          failed={intl.formatMessage({ id: 'admin.trial.users.loadFailed' })}
        >
          {(list) => {
            const trials = list.data.filter((u) => u.role === 'trial');
            return (
              <DataTable
                caption={intl.formatMessage({ id: 'admin.trial.users.caption' })}
                rows={trials}
                rowKey={(u) => u.id}
                empty={
                  <TableEmpty icon={<KeyIcon size={18} />}>
                    <FormattedMessage id="admin.trial.users.empty" />
                  </TableEmpty>
                }
                name={{ header: intl.formatMessage({ id: 'admin.trial.users.email' }), cell: (u) => u.email }}
                columns={[
                  { id: 'added', header: intl.formatMessage({ id: 'admin.trial.users.added' }), narrow: 'hide', cell: (u) => <Time iso={u.created_at} /> },
                  {
                    id: 'expires',
                    header: intl.formatMessage({ id: 'admin.trial.users.expires' }),
                    narrow: 'under',
                    cell: (u) => (u.trial ? <Time iso={u.trial.expires_at} /> : '—'),
                    underCell: (u) =>
                      !u.trial ? null : u.trial.expired ? (
                        <FormattedMessage id="admin.trial.users.ended" values={{ time: <Time iso={u.trial.expires_at} /> }} />
                      ) : (
                        trialValidity(u.trial.expires_at, intl)
                      ),
                  },
                  { id: 'quota', header: intl.formatMessage({ id: 'admin.trial.users.quota' }), narrow: 'under', cell: (u) => (u.trial ? quotaLeft(u.trial, intl) : '—') },
                  {
                    id: 'status',
                    header: intl.formatMessage({ id: 'admin.trial.users.status' }),
                    cell: (u) =>
                      u.disabled ? (
                        <span className="badge badge-danger">
                          <FormattedMessage id="admin.trial.status.disabled" />
                        </span>
                      ) : u.trial?.expired ? (
                        <span className="badge badge-danger">
                          <FormattedMessage id="admin.trial.status.ended" />
                        </span>
                      ) : (
                        <span className="badge badge-success">
                          <FormattedMessage id="admin.trial.status.active" />
                        </span>
                      ),
                  },
                ]}
              />
            );
          }}
        </Loadable>
      </Section>
    </>
  );
}
