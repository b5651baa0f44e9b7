import { useId, useState, type ReactNode } from 'react';
import type { Metrics } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { ROLE_LABELS } from '../../app/roles.js';
import { SelectField } from '../../ui/Field.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { useLoader } from '../../ui/useLoader.js';

const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 365 days' },
] as const;

const number = new Intl.NumberFormat();
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const n = (value: number) => number.format(value);
const dayLabel = (day: string) => dayFormat.format(Date.parse(`${day}T00:00:00Z`));

/** Usage of the organization over a chosen period: totals, a daily chart, and who and which models used it. */
export function Usage() {
  const [days, setDays] = useState<number>(30);
  const picker = (
    <SelectField label="Period" fieldClassName="usage-period" value={days} onChange={(event) => setDays(Number(event.target.value))}>
      {PERIODS.map((p) => (
        <option key={p.days} value={p.days}>
          {p.label}
        </option>
      ))}
    </SelectField>
  );
  // Keyed by the period: a new period is a fresh load, never a stale answer shown under a new label.
  return <UsageFor key={days} days={days} picker={picker} />;
}

function UsageFor({ days, picker }: { days: number; picker: ReactNode }) {
  const metrics = useLoader(() => {
    const to = new Date();
    return client.call('admin.metrics', { from: new Date(to.getTime() - days * 86_400_000).toISOString(), to: to.toISOString() });
  });
  const m = metrics.state.status === 'ready' ? metrics.state.data : null;
  return (
    <>
      <Section title="Totals" description={m ? <>From {dayLabel(m.from.slice(0, 10))} to {dayLabel(m.to.slice(0, 10))} (UTC).</> : 'Loading the period…'} actions={picker}>
        <Loadable state={metrics.state} reload={metrics.reload} loading="Loading usage…" shape="cards" failed="Usage could not be loaded">
          {(loaded) => <Totals totals={loaded.totals} />}
        </Loadable>
      </Section>
      {m ? (
        <>
          <Section title="Tokens per day" description="Input and output tokens of every model call, by UTC day.">
            <DayChart days={m.per_day} />
          </Section>
          <Section title="By user" description="Everyone in the organization, the busiest first.">
            <UserTable users={m.per_user} />
          </Section>
          <Section title="By model">
            <ModelTable models={m.per_model} />
          </Section>
        </>
      ) : null}
    </>
  );
}

function Totals({ totals }: { totals: Metrics['totals'] }) {
  const stats = [
    ['Active users', totals.active_users],
    ['Chats', totals.chats],
    ['Messages', totals.messages],
    ['Input tokens', totals.input_tokens],
    ['Output tokens', totals.output_tokens],
    ['Model calls', totals.model_calls],
    ['Uploads', totals.uploads],
  ] as const;
  return (
    <dl className="stat-grid" aria-label="Totals for the period">
      {stats.map(([label, value]) => (
        <div className="stat" key={label}>
          <dt className="stat-label">{label}</dt>
          <dd className="stat-value" title={n(value)}>
            {value >= 100_000 ? compact.format(value) : n(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** CSS bars, each input under output; the figure is described in words and the figures are in a table below it. */
function DayChart({ days }: { days: Metrics['per_day'] }) {
  const captionId = useId();
  const max = Math.max(1, ...days.map((d) => d.input_tokens + d.output_tokens));
  const total = days.reduce((sum, d) => sum + d.input_tokens + d.output_tokens, 0);
  const peak = days.reduce((best, d) => (d.input_tokens + d.output_tokens > best.input_tokens + best.output_tokens ? d : best), days[0] ?? { day: '', input_tokens: 0, output_tokens: 0, messages: 0 });
  const span = days.length > 0 ? `from ${dayLabel(days[0]?.day ?? '')} to ${dayLabel(days.at(-1)?.day ?? '')}` : '';
  const summary =
    total === 0
      ? `No tokens were used ${span}.`
      : `${n(total)} tokens ${span}; the busiest day was ${dayLabel(peak.day)} with ${n(peak.input_tokens + peak.output_tokens)}.`;
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <div className="chart-legend" aria-hidden="true">
        <span className="chart-key chart-key-input" /> Input
        <span className="chart-key chart-key-output" /> Output
      </div>
      <div className="chart-bars" role="img" aria-label={summary}>
        {days.map((d) => {
          const sum = d.input_tokens + d.output_tokens;
          return (
            <div className="chart-col" key={d.day} title={`${dayLabel(d.day)}: ${n(d.input_tokens)} in, ${n(d.output_tokens)} out, ${n(d.messages)} messages`}>
              <div className="chart-bar" style={{ height: `${(sum / max) * 100}%` }}>
                <div className="chart-bar-output" style={{ flexGrow: d.output_tokens }} />
                <div className="chart-bar-input" style={{ flexGrow: d.input_tokens }} />
              </div>
            </div>
          );
        })}
      </div>
      <div className="chart-axis" aria-hidden="true">
        <span>{days[0] ? dayLabel(days[0].day) : ''}</span>
        <span>{days.at(-1) ? dayLabel(days.at(-1)?.day ?? '') : ''}</span>
      </div>
      <figcaption id={captionId} className="chart-caption">
        {summary}
      </figcaption>
      <details className="chart-table">
        <summary>Daily figures as a table</summary>
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Usage per day</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">
                  Messages
                </th>
                <th scope="col" className="num">
                  Input tokens
                </th>
                <th scope="col" className="num">
                  Output tokens
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{d.day}</th>
                  <td className="num">{n(d.messages)}</td>
                  <td className="num">{n(d.input_tokens)}</td>
                  <td className="num">{n(d.output_tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function UserTable({ users }: { users: Metrics['per_user'] }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Usage by user</caption>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Role</th>
            <th scope="col" className="num">
              Chats
            </th>
            <th scope="col" className="num">
              Messages
            </th>
            <th scope="col" className="num">
              Input tokens
            </th>
            <th scope="col" className="num">
              Output tokens
            </th>
            <th scope="col" className="num">
              Uploads
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.user.id}>
              <th scope="row" className="cell-primary">
                {u.user.name}
                <span className="cell-secondary">{u.user.email}</span>
              </th>
              <td>{ROLE_LABELS[u.user.role]}</td>
              <td className="num">{n(u.chats)}</td>
              <td className="num">{n(u.messages)}</td>
              <td className="num">{n(u.input_tokens)}</td>
              <td className="num">{n(u.output_tokens)}</td>
              <td className="num">{n(u.uploads)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ModelTable({ models }: { models: Metrics['per_model'] }) {
  if (models.length === 0) return <p className="muted">No model was called in this period.</p>;
  const total = models.reduce((sum, m) => sum + m.input_tokens + m.output_tokens, 0) || 1;
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Usage by model</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Input tokens
            </th>
            <th scope="col" className="num">
              Output tokens
            </th>
            <th scope="col" className="num">
              Share of tokens
            </th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.model_id}>
              <th scope="row" className="cell-primary">
                {m.name}
              </th>
              <td className="num">{n(m.calls)}</td>
              <td className="num">{n(m.input_tokens)}</td>
              <td className="num">{n(m.output_tokens)}</td>
              <td className="num">{Math.round(((m.input_tokens + m.output_tokens) / total) * 100)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
