import { describe, expect, it } from 'vitest';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { compareHref, compareViewFromHash } from '../../../renderer/src/pages/compare/compare-hash.js';
import { applyComparisonEvent, responseTitle, type Comparison, type ComparisonResponse } from '../../../renderer/src/pages/compare/types.js';

const response = (id: string, label: string, extra: Partial<ComparisonResponse> = {}): ComparisonResponse => ({
  id,
  label,
  model_id: null,
  model_name: null,
  content: '',
  status: 'streaming',
  latency_ms: null,
  first_token_ms: null,
  usage: null,
  error: null,
  ...extra,
});

const comparison: Comparison = {
  id: 'cmp_1',
  prompt: 'p',
  blind: true,
  dataset_ids: [],
  citations: [],
  status: 'streaming',
  responses: [response('rsp_a', 'A'), response('rsp_b', 'B')],
  vote: null,
  created_at: 'now',
  updated_at: 'now',
};

describe('comparison stream fold', () => {
  it('appends each delta to its own answer and replaces an answer when it ends', () => {
    let state = applyComparisonEvent(null, { id: 0, event: 'comparison.created', data: { comparison } });
    state = applyComparisonEvent(state, { id: 1, event: 'delta', data: { response_id: 'rsp_b', content: 'Hel' } });
    state = applyComparisonEvent(state, { id: 2, event: 'delta', data: { response_id: 'rsp_a', content: 'one' } });
    state = applyComparisonEvent(state, { id: 3, event: 'delta', data: { response_id: 'rsp_b', content: 'lo' } });
    expect(state?.responses.map((r) => r.content)).toEqual(['one', 'Hello']);
    const ended = response('rsp_a', 'A', { content: 'one two', status: 'error', error: { code: 'upstream_error', detail: 'cut' } });
    state = applyComparisonEvent(state, { id: 4, event: 'response.completed', data: { response_id: 'rsp_a', response: ended } });
    expect(state?.responses[0]).toEqual(ended);
    expect(state?.responses[1]?.content).toBe('Hello');
  });

  it('a delta before the comparison is known changes nothing', () => {
    expect(applyComparisonEvent(null, { id: 0, event: 'delta', data: { response_id: 'rsp_a', content: 'x' } })).toBeNull();
  });

  it('names a hidden model by its letter', () => {
    expect(responseTitle(intlFor('en'), response('rsp_a', 'C'))).toBe('Model C');
    expect(responseTitle(intlFor('de'), response('rsp_a', 'C'))).toBe('Modell C');
    expect(responseTitle(intlFor('en'), response('rsp_a', 'C', { model_name: 'Llama' }))).toBe('Llama');
  });
});

describe('compare hash', () => {
  it.each([
    ['#/compare', { tab: 'compare', comparisonId: null }],
    ['#/compare/cmp_abc123', { tab: 'compare', comparisonId: 'cmp_abc123' }],
    ['#/compare/leaderboard', { tab: 'leaderboard' }],
    ['#/compare/history', { tab: 'history' }],
    ['#/compare/<script>', { tab: 'compare', comparisonId: null }],
  ] as const)('%s', (hash, view) => {
    expect(compareViewFromHash(hash)).toEqual(view);
    if (hash !== '#/compare/<script>') expect(compareHref(view)).toBe(hash);
  });
});
