import type { IntlShape } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import type { StreamEventOf } from '../../api/client.js';

export type Comparison = OutputOf<Operations['comparisons.get']>;
export type ComparisonResponse = Comparison['responses'][number];
export type ComparisonSummary = OutputOf<Operations['comparisons.list']>['data'][number];
export type Leaderboard = OutputOf<Operations['comparisons.leaderboard']>;
export type ComparisonEvent = StreamEventOf<'comparisons.create'>;

/** One stream event folded into the comparison it belongs to: the same fold however it arrives. */
export function applyComparisonEvent(current: Comparison | null, event: ComparisonEvent): Comparison | null {
  switch (event.event) {
    case 'comparison.created':
    case 'comparison.completed':
      return event.data.comparison;
    case 'delta':
      return current && withResponse(current, event.data.response_id, (r) => ({ ...r, content: r.content + event.data.content }));
    case 'response.completed':
      return current && withResponse(current, event.data.response_id, () => event.data.response);
  }
}

function withResponse(comparison: Comparison, id: string, change: (r: ComparisonResponse) => ComparisonResponse): Comparison {
  return { ...comparison, responses: comparison.responses.map((r) => (r.id === id ? change(r) : r)) };
}

/** What a column is called: the model's name once known, else its letter. */
export function responseTitle(intl: IntlShape, response: ComparisonResponse): string {
  return response.model_name ?? intl.formatMessage({ id: 'compare.response.model' }, { label: response.label });
}
