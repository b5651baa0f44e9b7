import { useState, type FormEvent } from 'react';
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
import { quotaLeft } from './trial-status.js';

type Issued = OutputOf<Operations['admin.userTokens.create']>;

const EXPIRIES = [
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
  { seconds: 90 * 86_400, label: '90 days' },
] as const;

/** Issues user tokens (`ut_…`) that let someone try Parley as a trial user, for a while and a number of requests. */
export function TrialTokens() {
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
    const bad = q !== '' && !(/^\d+$/.test(q) && Number(q) >= 1 && Number(q) <= 1_000_000);
    setQuotaError(bad ? 'A whole number of model calls, from 1 to 1,000,000; or empty for no limit.' : null);
    if (!bad) void issue.run();
  }

  return (
    <>
      <Section title="Issue a trial token" description="The token signs a new trial user in. It stops working when it expires; once its model calls run out, they can still read but not ask.">
        <form className="stack-form" aria-label="Issue a trial token" onSubmit={submit} noValidate>
          <div className="form-grid">
            <TextField label="Email" type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} hint="Optional; a placeholder address otherwise." />
            <SelectField label="Expires after" value={expiresIn} onChange={(event) => setExpiresIn(Number(event.target.value))}>
              {EXPIRIES.map((e) => (
                <option key={e.seconds} value={e.seconds}>
                  {e.label}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Model-call quota"
              inputMode="numeric"
              autoComplete="off"
              value={quota}
              onChange={(event) => setQuota(event.target.value)}
              error={quotaError}
              hint="Answers, agent steps and comparison answers count; reading pages is free. Empty: no limit."
            />
          </div>
          {issue.error ? <Alert tone="error">{issue.error}</Alert> : null}
          <div>
            <Button type="submit" variant="primary" icon={<KeyIcon />} busy={issue.busy}>
              Issue token
            </Button>
          </div>
        </form>
        {issued ? (
          <SecretReveal title={`Trial token for ${issued.user.email}`} secret={issued.token} onDone={() => setIssued(null)}>
            <p>
              Valid until <Time iso={issued.expires_at} />
              {issued.quota === null ? ', without a limit on model calls' : `, for ${new Intl.NumberFormat().format(issued.quota)} model calls`}. Send it in a private
              channel; whoever holds it signs in as this trial user.
            </p>
          </SecretReveal>
        ) : null}
      </Section>
      <Section title="Trial users">
        <Loadable state={users.state} reload={users.reload} loading="Loading trial users…" failed="The trial users could not be loaded">
          {(list) => {
            const trials = list.data.filter((u) => u.role === 'trial');
            return (
              <DataTable
                caption="Trial users"
                rows={trials}
                rowKey={(u) => u.id}
                empty={<TableEmpty icon={<KeyIcon size={18} />}>No trial users yet. Issue a token above to invite one.</TableEmpty>}
                name={{ header: 'Email', cell: (u) => u.email }}
                columns={[
                  { id: 'added', header: 'Added', narrow: 'hide', cell: (u) => <Time iso={u.created_at} /> },
                  {
                    id: 'expires',
                    header: 'Expires',
                    narrow: 'under',
                    cell: (u) => (u.trial ? <Time iso={u.trial.expires_at} /> : '—'),
                    underCell: (u) => (u.trial ? <>{u.trial.expired ? 'Ended ' : 'Until '}<Time iso={u.trial.expires_at} /></> : null),
                  },
                  { id: 'quota', header: 'Quota', narrow: 'under', cell: (u) => (u.trial ? quotaLeft(u.trial) : '—') },
                  {
                    id: 'status',
                    header: 'Status',
                    cell: (u) =>
                      u.disabled ? (
                        <span className="badge badge-danger">Disabled</span>
                      ) : u.trial?.expired ? (
                        <span className="badge badge-danger">Ended</span>
                      ) : (
                        <span className="badge badge-success">Active</span>
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
