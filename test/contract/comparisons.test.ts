import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Comparison, LeaderboardEntry } from '../../shared/operations/comparisons.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { collectChat, readSse } from '../support/sse.js';

let h: Harness;
let fixedA: string;
let fixedB: string;
let echo: string;
let other: string;

beforeAll(async () => {
  h = await startChatHarness();
  fixedA = await h.addModel('Alpha', 'fixed:Answer from alpha.');
  fixedB = await h.addModel('Beta', 'fixed:Answer from beta.');
  echo = await h.addModel('Echo', 'echo');
  const created = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'other@example.com', name: 'Other' });
  other = created.body.api_key.key;
});
afterAll(() => h.close());

const compare = (body: Record<string, unknown>, token?: string) => h.json<Comparison>('/comparisons', 'POST', body, token);
const byModel = (c: Comparison, id: string) => c.responses.find((r) => r.model_id === id);

describe('POST /api/comparisons', () => {
  it('asks every model the same prompt and answers each response with its status, latency and usage', async () => {
    const { status, body } = await compare({ prompt: 'Say something', model_ids: [fixedA, fixedB, echo] });
    expect(status).toBe(201);
    expect(body.id).toMatch(/^cmp_/);
    expect(body.status).toBe('complete');
    expect(body.responses.map((r) => r.model_id)).toEqual([fixedA, fixedB, echo]);
    expect(body.responses.map((r) => r.label)).toEqual(['A', 'B', 'C']);
    expect(byModel(body, fixedA)).toMatchObject({ content: 'Answer from alpha.', status: 'complete', model_name: 'Alpha', error: null });
    expect(byModel(body, echo)?.content).toBe('You said: Say something');
    for (const r of body.responses) {
      expect(r.id).toMatch(/^rsp_/);
      expect(r.latency_ms).toEqual(expect.any(Number));
      expect(r.usage).toEqual({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    }

    const again = await h.json<Comparison>(`/comparisons/${body.id}`, 'GET');
    expect(again.status).toBe(200);
    expect(again.body.responses.map((r) => r.content)).toEqual(body.responses.map((r) => r.content));
  });

  it('records usage for each answer, as chat does', async () => {
    const { body } = await compare({ prompt: 'usage please', model_ids: [fixedA, fixedB] });
    const usage = h.core.db.prepare("SELECT model_id, message_id, output_tokens FROM usage_events WHERE source = 'comparison'").all() as Array<{
      model_id: string;
      message_id: string;
      output_tokens: number;
    }>;
    const mine = usage.filter((u) => body.responses.some((r) => r.id === u.message_id));
    expect(mine.map((u) => u.model_id).sort()).toEqual([fixedA, fixedB].sort());
    expect(mine.every((u) => u.output_tokens > 0)).toBe(true);
  });

  it('streams all answers as SSE, every event after the first naming its response_id', async () => {
    const slow = await h.addModel('Slow', 'slow:20');
    const res = await h.api('/comparisons', { method: 'POST', body: JSON.stringify({ prompt: 'Stream it', model_ids: [slow, fixedA], stream: true }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await collectChat(res);
    expect(events[0]?.event).toBe('comparison.created');
    const created = events[0]?.data.comparison as Comparison;
    expect(created.status).toBe('streaming');
    expect(events.at(-1)?.event).toBe('comparison.completed');
    const ids = new Set(created.responses.map((r) => r.id));
    for (const e of events.slice(1, -1)) expect(ids.has(e.data.response_id as string)).toBe(true);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));

    const slowId = created.responses.find((r) => r.model_id === slow)?.id;
    const text = events.filter((e) => e.event === 'delta' && e.data.response_id === slowId).map((e) => e.data.content).join('');
    expect(text).toBe('one two three four five six seven eight nine ten');
    expect(events.filter((e) => e.event === 'response.completed')).toHaveLength(2);
    const final = events.at(-1)?.data.comparison as Comparison;
    expect(final.responses.every((r) => r.status === 'complete')).toBe(true);
  });

  it('asks the models at once (their deltas interleave), and saves each answer’s text while it streams', async () => {
    const one = await h.addModel('Slow one', 'slow:120');
    const two = await h.addModel('Slow two', 'slow:120');
    const res = await h.api('/comparisons', { method: 'POST', body: JSON.stringify({ prompt: 'Together', model_ids: [one, two], stream: true }) });
    const events: Array<{ event: string; data: Record<string, unknown> }> = [];
    let id = '';
    let saved: Comparison | null = null;
    for await (const e of readSse(res)) {
      const data = JSON.parse(e.data) as Record<string, unknown>;
      events.push({ event: e.event ?? '', data });
      if (e.event === 'comparison.created') id = (data.comparison as Comparison).id;
      // Half-way through, the stored answers already hold the text so far (once the periodic flush ran).
      if (saved === null && events.filter((x) => x.event === 'delta').length === 8) {
        saved = await vi.waitFor(
          async () => {
            const stored = (await h.json<Comparison>(`/comparisons/${id}`, 'GET')).body;
            if (!stored.responses.every((r) => r.content.startsWith('one two'))) throw new Error('not flushed yet');
            return stored;
          },
          { timeout: 10_000, interval: 25 },
        );
      }
    }
    const order = events.filter((e) => e.event === 'delta').map((e) => e.data.response_id);
    const [a, b] = [order[0], order.find((r) => r !== order[0])];
    expect(order.indexOf(b)).toBeLessThan(order.lastIndexOf(a));
    const during = saved as Comparison | null;
    expect(during?.status).toBe('streaming');
    expect(during?.responses.every((r) => r.status === 'streaming' && r.content.startsWith('one two'))).toBe(true);
  });

  it('a model that fails mid-answer marks only its response error, partial text kept; the others finish', async () => {
    const failing = await h.addModel('Failing', 'fail-mid:3');
    const refusing = await h.addModel('Refusing', 'status:500');
    const { status, body } = await compare({ prompt: 'Go', model_ids: [failing, fixedA, refusing] });
    expect(status).toBe(201);
    expect(byModel(body, fixedA)).toMatchObject({ status: 'complete', content: 'Answer from alpha.' });
    const cut = byModel(body, failing);
    expect(cut?.status).toBe('error');
    expect(cut?.content).toContain('w1 w2 w3');
    expect(cut?.error?.code).toEqual(expect.any(String));
    expect(byModel(body, refusing)).toMatchObject({ status: 'error', content: '' });
  });

  it('blind mode hides the models until a vote, which reveals them', async () => {
    const { body } = await compare({ prompt: 'Blind test', model_ids: [fixedA, fixedB], blind: true });
    expect(body.blind).toBe(true);
    expect(body.responses.every((r) => r.model_id === null && r.model_name === null)).toBe(true);
    expect(new Set(body.responses.map((r) => r.content))).toEqual(new Set(['Answer from alpha.', 'Answer from beta.']));
    const listed = await h.json<{ data: Comparison[] }>('/comparisons', 'GET');
    expect(listed.body.data.find((c) => c.id === body.id)?.responses.every((r) => r.model_id === null)).toBe(true);

    const streamed = await h.api('/comparisons', { method: 'POST', body: JSON.stringify({ prompt: 'Blind stream', model_ids: [fixedA, fixedB], blind: true, stream: true }) });
    const text = JSON.stringify(await collectChat(streamed));
    expect(text).not.toContain(fixedA);
    expect(text).not.toContain('Alpha');

    const alphaAnswer = body.responses.find((r) => r.content === 'Answer from alpha.');
    const voted = await h.json<Comparison>(`/comparisons/${body.id}/votes`, 'POST', { winner_response_id: alphaAnswer?.id });
    expect(voted.status).toBe(201);
    expect(voted.body.vote).toMatchObject({ outcome: 'winner', winner_response_id: alphaAnswer?.id });
    expect(voted.body.responses.find((r) => r.id === alphaAnswer?.id)).toMatchObject({ model_id: fixedA, model_name: 'Alpha' });
    const reopened = await h.json<Comparison>(`/comparisons/${body.id}`, 'GET');
    expect(reopened.body.responses.every((r) => r.model_id !== null)).toBe(true);
  });

  it.each([
    ['one model', { prompt: 'x', model_ids: ['mdl_extractive'] }],
    ['nine models', { prompt: 'x', model_ids: Array.from({ length: 9 }, (_, i) => `mdl_m${i}`) }],
    ['the same model twice', { prompt: 'x', model_ids: ['mdl_extractive', 'mdl_extractive'] }],
    ['an empty prompt', { prompt: '', model_ids: ['mdl_extractive', 'mdl_x'] }],
    ['a blank prompt', { prompt: '  \n ', model_ids: ['mdl_extractive', 'mdl_x'] }],
    ['a prompt too long', { prompt: 'x'.repeat(20_001), model_ids: ['mdl_extractive', 'mdl_x'] }],
    ['not model ids', { prompt: 'x', model_ids: ['thr_abc', 'mdl_extractive'] }],
    ['a model that does not exist', { prompt: 'x', model_ids: ['mdl_extractive', 'mdl_nosuchmodel'] }],
  ])('refuses %s with 400 invalid_argument', async (_label, body) => {
    const res = await h.api('/comparisons', { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { code: string; errors: Array<{ path: string }> };
    expect(problem.code).toBe('invalid_argument');
    expect(problem.errors.length).toBeGreaterThan(0);
  });

  it('an unknown dataset is 404', async () => {
    const { status, body } = await compare({ prompt: 'x', model_ids: [fixedA, fixedB], dataset_ids: ['ds_nothere'] });
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found' });
  });
});

describe('over datasets', () => {
  it('every model draws on the same passages; the comparison keeps their citations', async () => {
    const dataset = (await h.json<{ id: string; kb_id: string }>('/datasets', 'POST', { name: 'Village' })).body;
    const form = new FormData();
    form.append('file', new Blob(['# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick.\n'], { type: 'text/markdown' }), 'lighthouse.md');
    expect((await h.api(`/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form })).status).toBe(201);
    await h.core.runtime.ingest.idle();
    expect((await h.json<{ status: string }>(`/knowledge-bases/${dataset.kb_id}/artifacts/lighthouse.md`, 'GET')).body.status).toBe('ready');
    const seen = h.upstream.requests.length;
    const { status, body } = await compare({ prompt: 'When is the lighthouse lamp lit?', model_ids: ['mdl_extractive', echo], dataset_ids: [dataset.id] });
    expect(status).toBe(201);
    expect(body.dataset_ids).toEqual([dataset.id]);
    expect(body.citations[0]).toMatchObject({ index: 1, dataset_id: dataset.id, artifact_key: 'lighthouse.md' });
    expect(byModel(body, 'mdl_extractive')?.content).toMatch(/dusk/);
    // The generative model was given the same passage, numbered as cited.
    const sent = JSON.stringify(h.upstream.requests.slice(seen).map((r) => r.body));
    expect(sent).toContain('[1] lighthouse.md');
  });
});

describe('votes', () => {
  it('one vote per comparison: a second answers 409 conflict', async () => {
    const { body } = await compare({ prompt: 'Vote once', model_ids: [fixedA, fixedB] });
    const first = await h.json<Comparison>(`/comparisons/${body.id}/votes`, 'POST', { outcome: 'tie' });
    expect(first.status).toBe(201);
    expect(first.body.vote).toMatchObject({ outcome: 'tie', winner_response_id: null });
    const second = await h.json<{ code: string }>(`/comparisons/${body.id}/votes`, 'POST', { outcome: 'both_bad' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
  });

  it('refuses a winner that is not an answer of the comparison, and both or neither of winner and outcome', async () => {
    const a = await compare({ prompt: 'One', model_ids: [fixedA, fixedB] });
    const b = await compare({ prompt: 'Two', model_ids: [fixedA, fixedB] });
    const foreign = await h.json<{ code: string }>(`/comparisons/${a.body.id}/votes`, 'POST', { winner_response_id: b.body.responses[0]?.id });
    expect(foreign.status).toBe(400);
    const both = await h.json(`/comparisons/${a.body.id}/votes`, 'POST', { winner_response_id: a.body.responses[0]?.id, outcome: 'tie' });
    expect(both.status).toBe(400);
    const neither = await h.json(`/comparisons/${a.body.id}/votes`, 'POST', {});
    expect(neither.status).toBe(400);
  });

  it('another user can neither read, list, vote on nor cancel my comparison (404), and nobody without a token (401)', async () => {
    const { body } = await compare({ prompt: 'Mine', model_ids: [fixedA, fixedB] });
    expect((await h.json(`/comparisons/${body.id}`, 'GET', undefined, other)).status).toBe(404);
    expect((await h.json(`/comparisons/${body.id}/votes`, 'POST', { outcome: 'tie' }, other)).status).toBe(404);
    expect((await h.json(`/comparisons/${body.id}/cancel`, 'POST', {}, other)).status).toBe(404);
    const theirs = await h.json<{ data: Comparison[] }>('/comparisons', 'GET', undefined, other);
    expect(theirs.body.data.map((c) => c.id)).not.toContain(body.id);
    expect((await h.api(`/comparisons/${body.id}`, { token: null })).status).toBe(401);
    expect((await h.api('/comparisons/leaderboard', { token: null })).status).toBe(401);
  });
});

describe('GET /api/comparisons', () => {
  it('lists the caller’s comparisons newest first, paged with a cursor', async () => {
    const made: string[] = [];
    for (const prompt of ['p1', 'p2', 'p3']) made.push((await compare({ prompt, model_ids: [fixedA, fixedB] }, other)).body.id);
    const first = await h.json<{ data: Comparison[]; next_cursor: string | null }>('/comparisons?limit=2', 'GET', undefined, other);
    expect(first.body.data.map((c) => c.id)).toEqual([made[2], made[1]]);
    expect(first.body.data[0]).not.toHaveProperty('citations');
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await h.json<{ data: Comparison[]; next_cursor: string | null }>(`/comparisons?limit=2&cursor=${first.body.next_cursor}`, 'GET', undefined, other);
    expect(second.body.data.map((c) => c.id)).toEqual([made[0]]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('an unknown comparison is 404', async () => {
    expect((await h.json('/comparisons/cmp_nothere', 'GET')).status).toBe(404);
  });
});

describe('GET /api/comparisons/{id}/stream', () => {
  it('re-attaches after Last-Event-ID while the answers are written, then replays a finished one whole', async () => {
    const slow = await h.addModel('Slow attach', 'slow:40');
    const res = await h.api('/comparisons', { method: 'POST', body: JSON.stringify({ prompt: 'Attach', model_ids: [slow, fixedB], stream: true }) });
    const reader = res.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    await reader?.cancel();
    const id = /"id":"(cmp_[A-Za-z0-9]+)"/.exec(first)?.[1] ?? '';
    const attached = await collectChat(await h.api(`/comparisons/${id}/stream`, { headers: { 'last-event-id': '0' } }));
    expect(attached[0]?.id).toBe(1);
    expect(attached.map((e) => e.id)).toEqual(attached.map((_, i) => i + 1));
    expect(attached.at(-1)?.event).toBe('comparison.completed');
    const slowId = (attached.at(-1)?.data.comparison as Comparison).responses.find((r) => r.model_id === slow)?.id;
    const text = attached.filter((e) => e.event === 'delta' && e.data.response_id === slowId).map((e) => e.data.content).join('');
    expect(text).toBe('one two three four five six seven eight nine ten');

    const other404 = await h.api(`/comparisons/${id}/stream`, { token: other });
    expect(other404.status).toBe(404);
  });
});

describe('cancel', () => {
  it('stops the answers still streaming, keeping their text as cancelled', async () => {
    const slow = await h.addModel('Slow cancel', 'slow:300');
    const res = await h.api('/comparisons', { method: 'POST', body: JSON.stringify({ prompt: 'Stop me', model_ids: [slow, fixedA], stream: true }) });
    const reader = res.body?.getReader();
    // Read until the fast answer has ended, while the slow one still streams.
    let seen = '';
    while (!seen.includes('response.completed')) seen += new TextDecoder().decode((await reader?.read())?.value);
    const id = /"id":"(cmp_[A-Za-z0-9]+)"/.exec(seen)?.[1];
    expect(id).toBeDefined();
    const cancelled = await h.json<Comparison>(`/comparisons/${id}/cancel`, 'POST', {});
    expect(cancelled.status).toBe(200);
    expect(byModel(cancelled.body, slow)?.status).toBe('cancelled');
    expect(byModel(cancelled.body, fixedA)?.status).toBe('complete');
    await reader?.cancel();
  });
});

describe('after a crash', () => {
  it('an answer left streaming with nothing writing it reads as interrupted, its text kept', async () => {
    const { body } = await compare({ prompt: 'Crash later', model_ids: [fixedA, fixedB] });
    const target = body.responses[0]?.id ?? '';
    // As the app would have left it: still streaming, part of the text saved.
    h.core.db.prepare("UPDATE comparison_responses SET status = 'streaming', content = 'Answer fr' WHERE id = ?").run(target);
    const { body: again } = await h.json<Comparison>(`/comparisons/${body.id}`, 'GET');
    expect(again.status).toBe('complete');
    expect(again.responses[0]).toMatchObject({ status: 'interrupted', content: 'Answer fr', error: { code: 'unavailable' } });
  });
});

describe('GET /api/comparisons/leaderboard', () => {
  it('rates models from every vote with intervals, and keeps a deleted model under its name', async () => {
    const gone = await h.addModel('Gone', 'fixed:Soon deleted.');
    for (let i = 0; i < 3; i++) {
      const { body } = await compare({ prompt: `Rank ${i}`, model_ids: [gone, fixedB] });
      await h.json(`/comparisons/${body.id}/votes`, 'POST', { winner_response_id: byModel(body, gone)?.id });
    }
    const kept = await compare({ prompt: 'Before deletion', model_ids: [gone, fixedB] });
    expect((await h.json(`/models/${gone}`, 'DELETE')).status).toBe(204);

    const reopened = await h.json<Comparison>(`/comparisons/${kept.body.id}`, 'GET');
    expect(reopened.status).toBe(200);
    expect(byModel(reopened.body, gone)).toMatchObject({ model_name: 'Gone', content: 'Soon deleted.' });

    const { status, body } = await h.json<{ data: LeaderboardEntry[]; total_votes: number; method: string }>('/comparisons/leaderboard', 'GET');
    expect(status).toBe(200);
    expect(body.method).toBe('bradley_terry');
    expect(body.total_votes).toBeGreaterThanOrEqual(5);
    expect(body.data.map((e) => e.rank)).toEqual(body.data.map((_, i) => i + 1));
    for (const e of body.data) {
      expect(e.ci_low).toBeLessThanOrEqual(e.rating);
      expect(e.ci_high).toBeGreaterThanOrEqual(e.rating);
      expect(e.votes).toBe(e.wins + e.losses + e.ties + e.both_bad);
    }
    const goneEntry = body.data.find((e) => e.model_id === gone);
    expect(goneEntry).toMatchObject({ model_name: 'Gone', wins: 3, losses: 0 });
    expect(goneEntry?.rating).toBeGreaterThan(body.data.find((e) => e.model_id === fixedB)?.rating ?? Infinity);

    // The same votes give the same intervals: the bootstrap is seeded.
    const again = await h.json<{ data: LeaderboardEntry[] }>('/comparisons/leaderboard', 'GET');
    expect(again.body.data).toEqual(body.data);
    // The organization's leaderboard: another user of it sees the same.
    expect((await h.json<{ data: LeaderboardEntry[] }>('/comparisons/leaderboard', 'GET', undefined, other)).body.data).toEqual(body.data);
  });

  it('an answer that errored is left out: it cannot win, and a tie or a win ranks only the answers that completed', async () => {
    // A separate organization's users would share nothing; here the fresh models show the effect alone.
    const good = await h.addModel('Good', 'fixed:Fine answer.');
    const better = await h.addModel('Better', 'fixed:Finer answer.');
    const dead = await h.addModel('Dead', 'status:503');
    const tie = await compare({ prompt: 'Tie with a dead one', model_ids: [good, better, dead] });
    expect(byModel(tie.body, dead)?.status).toBe('error');
    const refused = await h.json<{ code: string }>(`/comparisons/${tie.body.id}/votes`, 'POST', { winner_response_id: byModel(tie.body, dead)?.id });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
    expect((await h.json(`/comparisons/${tie.body.id}/votes`, 'POST', { outcome: 'tie' })).status).toBe(201);
    const win = await compare({ prompt: 'Win over a dead one', model_ids: [better, dead] });
    expect((await h.json(`/comparisons/${win.body.id}/votes`, 'POST', { winner_response_id: byModel(win.body, better)?.id })).status).toBe(201);

    const { body } = await h.json<{ data: LeaderboardEntry[] }>('/comparisons/leaderboard', 'GET');
    expect(body.data.find((e) => e.model_id === dead)).toBeUndefined();
    expect(body.data.find((e) => e.model_id === good)).toMatchObject({ votes: 1, ties: 1, wins: 0, losses: 0 });
    expect(body.data.find((e) => e.model_id === better)).toMatchObject({ votes: 2, ties: 1, wins: 1, losses: 0 });
  });
});
