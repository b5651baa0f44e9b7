import { useId, useState, type ReactNode } from 'react';
import type { Metrics } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
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
        <FigureTable
          caption="Usage per day"
          columns={{ header: 'Day (UTC)', figures: ['Messages', 'Input tokens', 'Output tokens'] }}
          rows={days.map((d) => ({ key: d.day, header: d.day, figures: [d.messages, d.input_tokens, d.output_tokens] }))}
        />
      </details>
    </figure>
  );
}

interface FigureRow {
  key: string;
  /** The row's header cell: who or what the figures are about. */
  header: ReactNode;
  /** Text cells after the header (a role, say). */
  text?: ReactNode[];
  /** Right-aligned figures; numbers are formatted for the reader's locale. */
  figures: Array<number | string>;
}

/** A table of figures: a header column, optional text columns, then right-aligned figures. */
function FigureTable({ caption, columns, rows }: { caption: string; columns: { header: string; text?: string[]; figures: string[] }; rows: FigureRow[] }) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(row) => row.key}
      empty={<TableEmpty>Nothing in this period.</TableEmpty>}
      name={{ header: columns.header, cell: (row) => row.header }}
      columns={[
        ...(columns.text ?? []).map((header, i) => ({ id: `text-${header}`, header, narrow: 'under' as const, cell: (row: FigureRow) => row.text?.[i] })),
        ...columns.figures.map((header, i) => ({
          id: `figure-${header}`,
          header,
          numeric: true,
          cell: (row: FigureRow) => {
            const value = row.figures[i];
            return typeof value === 'number' ? n(value) : value;
          },
        })),
      ]}
    />
  );
}

function UserTable({ users }: { users: Metrics['per_user'] }) {
  return (
    <FigureTable
      caption="Usage by user"
      columns={{ header: 'User', text: ['Role'], figures: ['Chats', 'Messages', 'Input tokens', 'Output tokens', 'Uploads'] }}
      rows={users.map((u) => ({
        key: u.user.id,
        header: (
          <>
            {u.user.name}
            <span className="cell-secondary">{u.user.email}</span>
          </>
        ),
        text: [ROLE_LABELS[u.user.role]],
        figures: [u.chats, u.messages, u.input_tokens, u.output_tokens, u.uploads],
      }))}
    />
  );
}

function ModelTable({ models }: { models: Metrics['per_model'] }) {
  if (models.length === 0) return <p className="muted">No model was called in this period.</p>;
  const total = models.reduce((sum, m) => sum + m.input_tokens + m.output_tokens, 0) || 1;
  return (
    <FigureTable
      caption="Usage by model"
      columns={{ header: 'Model', figures: ['Calls', 'Input tokens', 'Output tokens', 'Share of tokens'] }}
      rows={models.map((m) => ({
        key: m.model_id,
        header: m.name,
        figures: [m.calls, m.input_tokens, m.output_tokens, `${Math.round(((m.input_tokens + m.output_tokens) / total) * 100)}%`],
      }))}
    />
  );
}
