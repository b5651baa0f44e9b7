import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { Metrics } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { roleLabel } from '../../app/roles.js';
import { SelectField } from '../../ui/Field.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { useLoader } from '../../ui/useLoader.js';

const PERIODS = [7, 30, 90, 365] as const;

// Figures and days follow the interface's language, not the machine's.
const n = (intl: IntlShape, value: number) => intl.formatNumber(value);
const compact = (intl: IntlShape, value: number) => intl.formatNumber(value, { notation: 'compact', maximumFractionDigits: 1 });
const dayLabel = (intl: IntlShape, day: string) => intl.formatDate(Date.parse(`${day}T00:00:00Z`), { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Usage of the organization over a chosen period: totals, a daily chart, and who and which models used it. */
export function Usage() {
  const intl = useIntl();
  const [days, setDays] = useState<number>(30);
  const picker = (
    <SelectField
      label={intl.formatMessage({ id: 'admin.usage.period' })}
      fieldClassName="usage-period"
      value={days}
      onChange={(event) => setDays(Number(event.target.value))}
    >
      {PERIODS.map((p) => (
        <option key={p} value={p}>
          {intl.formatMessage({ id: 'admin.usage.lastDays' }, { days: p })}
        </option>
      ))}
    </SelectField>
  );
  // Keyed by the period: a new period is a fresh load, never a stale answer shown under a new label.
  return <UsageFor key={days} days={days} picker={picker} />;
}

function UsageFor({ days, picker }: { days: number; picker: ReactNode }) {
  const intl = useIntl();
  const metrics = useLoader(() => {
    const to = new Date();
    return client.call('admin.metrics', { from: new Date(to.getTime() - days * 86_400_000).toISOString(), to: to.toISOString() });
  });
  const m = metrics.state.status === 'ready' ? metrics.state.data : null;
  return (
    <>
      <Section
        title={intl.formatMessage({ id: 'admin.usage.totals.title' })}
        description={
          m
            ? intl.formatMessage({ id: 'admin.usage.totals.range' }, { from: dayLabel(intl, m.from.slice(0, 10)), to: dayLabel(intl, m.to.slice(0, 10)) })
            : intl.formatMessage({ id: 'admin.usage.totals.loadingPeriod' })
        }
        actions={picker}
      >
        <Loadable
          state={metrics.state}
          reload={metrics.reload}
          loading={intl.formatMessage({ id: 'admin.usage.loading' })}
          shape="cards"
          failed={intl.formatMessage({ id: 'admin.usage.loadFailed' })}
        >
          {(loaded) => <Totals totals={loaded.totals} />}
        </Loadable>
      </Section>
      {m ? (
        <>
          <Section title={intl.formatMessage({ id: 'admin.usage.perDay.title' })} description={intl.formatMessage({ id: 'admin.usage.perDay.description' })}>
            <DayChart days={m.per_day} />
          </Section>
          <Section title={intl.formatMessage({ id: 'admin.usage.byUser.title' })} description={intl.formatMessage({ id: 'admin.usage.byUser.description' })}>
            <UserTable users={m.per_user} />
          </Section>
          <Section title={intl.formatMessage({ id: 'admin.usage.byModel.title' })}>
            <ModelTable models={m.per_model} />
          </Section>
        </>
      ) : null}
    </>
  );
}

function Totals({ totals }: { totals: Metrics['totals'] }) {
  const intl = useIntl();
  const stats = [
    ['admin.usage.stat.activeUsers', totals.active_users],
    ['admin.usage.stat.chats', totals.chats],
    ['admin.usage.stat.messages', totals.messages],
    ['admin.usage.stat.inputTokens', totals.input_tokens],
    ['admin.usage.stat.outputTokens', totals.output_tokens],
    ['admin.usage.stat.modelCalls', totals.model_calls],
    ['admin.usage.stat.uploads', totals.uploads],
  ] as const;
  return (
    <dl className="stat-grid" aria-label={intl.formatMessage({ id: 'admin.usage.stat.label' })}>
      {stats.map(([label, value]) => (
        <div className="stat" key={label}>
          <dt className="stat-label">
            <FormattedMessage id={label} />
          </dt>
          <dd className="stat-value" title={n(intl, value)}>
            {value >= 100_000 ? compact(intl, value) : n(intl, value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** CSS bars, each input under output; the figure is described in words and the figures are in a table below it. */
function DayChart({ days }: { days: Metrics['per_day'] }) {
  const intl = useIntl();
  const captionId = useId();
  const max = Math.max(1, ...days.map((d) => d.input_tokens + d.output_tokens));
  const total = days.reduce((sum, d) => sum + d.input_tokens + d.output_tokens, 0);
  const peak = days.reduce((best, d) => (d.input_tokens + d.output_tokens > best.input_tokens + best.output_tokens ? d : best), days[0] ?? { day: '', input_tokens: 0, output_tokens: 0, messages: 0 });
  const range = { from: dayLabel(intl, days[0]?.day ?? ''), to: dayLabel(intl, days.at(-1)?.day ?? '') };
  const summary =
    days.length === 0
      ? intl.formatMessage({ id: 'admin.usage.chart.noDays' })
      : total === 0
        ? intl.formatMessage({ id: 'admin.usage.chart.noTokens' }, range)
        : intl.formatMessage(
            { id: 'admin.usage.chart.summary' },
            { ...range, total: n(intl, total), peak: dayLabel(intl, peak.day), peakTotal: n(intl, peak.input_tokens + peak.output_tokens) },
          );
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <div className="chart-legend" aria-hidden="true">
        <span className="chart-key chart-key-input" /> <FormattedMessage id="admin.usage.chart.input" />
        <span className="chart-key chart-key-output" /> <FormattedMessage id="admin.usage.chart.output" />
      </div>
      <div className="chart-bars" role="img" aria-label={summary}>
        {days.map((d) => {
          const sum = d.input_tokens + d.output_tokens;
          return (
            <div
              className="chart-col"
              key={d.day}
              title={intl.formatMessage(
                { id: 'admin.usage.chart.bar' },
                { day: dayLabel(intl, d.day), input: n(intl, d.input_tokens), output: n(intl, d.output_tokens), messages: n(intl, d.messages) },
              )}
            >
              <div className="chart-bar" style={{ height: `${(sum / max) * 100}%` }}>
                <div className="chart-bar-output" style={{ flexGrow: d.output_tokens }} />
                <div className="chart-bar-input" style={{ flexGrow: d.input_tokens }} />
              </div>
            </div>
          );
        })}
      </div>
      <div className="chart-axis" aria-hidden="true">
        <span>{days[0] ? dayLabel(intl, days[0].day) : ''}</span>
        <span>{days.at(-1) ? dayLabel(intl, days.at(-1)?.day ?? '') : ''}</span>
      </div>
      <figcaption id={captionId} className="chart-caption">
        {summary}
      </figcaption>
      <details className="chart-table">
        <summary>
          <FormattedMessage id="admin.usage.chart.asTable" />
        </summary>
        <FigureTable
          caption={intl.formatMessage({ id: 'admin.usage.perDay.caption' })}
          columns={{
            header: intl.formatMessage({ id: 'admin.usage.column.day' }),
            figures: [
              intl.formatMessage({ id: 'admin.usage.column.messages' }),
              intl.formatMessage({ id: 'admin.usage.column.inputTokens' }),
              intl.formatMessage({ id: 'admin.usage.column.outputTokens' }),
            ],
          }}
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
  const intl = useIntl();
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(row) => row.key}
      empty={
        <TableEmpty>
          <FormattedMessage id="admin.usage.empty" />
        </TableEmpty>
      }
      name={{ header: columns.header, cell: (row) => row.header }}
      columns={[
        ...(columns.text ?? []).map((header, i) => ({ id: `text-${header}`, header, narrow: 'under' as const, cell: (row: FigureRow) => row.text?.[i] })),
        ...columns.figures.map((header, i) => ({
          id: `figure-${header}`,
          header,
          numeric: true,
          cell: (row: FigureRow) => {
            const value = row.figures[i];
            return typeof value === 'number' ? n(intl, value) : value;
          },
        })),
      ]}
    />
  );
}

function UserTable({ users }: { users: Metrics['per_user'] }) {
  const intl = useIntl();
  return (
    <FigureTable
      caption={intl.formatMessage({ id: 'admin.usage.byUser.caption' })}
      columns={{
        header: intl.formatMessage({ id: 'admin.usage.column.user' }),
        text: [intl.formatMessage({ id: 'admin.usage.column.role' })],
        figures: [
          intl.formatMessage({ id: 'admin.usage.column.chats' }),
          intl.formatMessage({ id: 'admin.usage.column.messages' }),
          intl.formatMessage({ id: 'admin.usage.column.inputTokens' }),
          intl.formatMessage({ id: 'admin.usage.column.outputTokens' }),
          intl.formatMessage({ id: 'admin.usage.column.uploads' }),
        ],
      }}
      rows={users.map((u) => ({
        key: u.user.id,
        header: (
          <>
            {u.user.name}
            <span className="cell-secondary">{u.user.email}</span>
          </>
        ),
        text: [roleLabel(u.user.role, intl)],
        figures: [u.chats, u.messages, u.input_tokens, u.output_tokens, u.uploads],
      }))}
    />
  );
}

function ModelTable({ models }: { models: Metrics['per_model'] }) {
  const intl = useIntl();
  if (models.length === 0)
    return (
      <p className="muted">
        <FormattedMessage id="admin.usage.byModel.none" />
      </p>
    );
  const total = models.reduce((sum, m) => sum + m.input_tokens + m.output_tokens, 0) || 1;
  return (
    <FigureTable
      caption={intl.formatMessage({ id: 'admin.usage.byModel.caption' })}
      columns={{
        header: intl.formatMessage({ id: 'admin.usage.column.model' }),
        figures: [
          intl.formatMessage({ id: 'admin.usage.column.calls' }),
          intl.formatMessage({ id: 'admin.usage.column.inputTokens' }),
          intl.formatMessage({ id: 'admin.usage.column.outputTokens' }),
          intl.formatMessage({ id: 'admin.usage.column.share' }),
        ],
      }}
      rows={models.map((m) => ({
        key: m.model_id,
        header: m.name,
        // Whole percents, written the reader's way ("42%", "42 %").
        figures: [
          m.calls,
          m.input_tokens,
          m.output_tokens,
          intl.formatNumber(Math.round(((m.input_tokens + m.output_tokens) / total) * 100) / 100, { style: 'percent', maximumFractionDigits: 0 }),
        ],
      }))}
    />
  );
}
