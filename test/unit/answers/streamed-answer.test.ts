/**
 * Issue 13, item 1: the one streamed-answer module, over a real core's SQLite. The periodic save
 * runs on a timer the test drives by hand; the end (text, status, usage) is one transaction.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnswerFailed } from '../../../main/core/answering/answer-failed.js';
import { INTERRUPTED, TURN_TEXT_BYTES, writeAnswer, type AnswerStore, type FlushTimer, type TextEvent } from '../../../main/core/answering/streamed-answer.js';
import { coalesceDeltas } from '../../../main/core/answering/coalesce.js';
import { bootTestCore } from '../../support/core.js';
import { PushedSource } from '../../support/pushed-source.js';

const Source = PushedSource<TextEvent>;

/** A flush timer the test ticks by hand. */
function manualTimer(): FlushTimer & { tick: () => void; running: boolean } {
  let fn: (() => void) | null = null;
  return {
    every: (_ms, f) => {
      fn = f;
      return () => (fn = null);
    },
    tick: () => fn?.(),
    get running() {
      return fn !== null;
    },
  };
}

let core: ReturnType<typeof bootTestCore>;
let messageId: string;
let userId: string;
beforeEach(() => {
  core = bootTestCore();
  const user = core.desktopCaller().user;
  userId = user.id;
  const now = new Date().toISOString();
  core.repos.threads.insert({ id: 'thr_t', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
  messageId = 'msg_answer';
  core.repos.messages.insert({ id: messageId, thread_id: 'thr_t', parent_id: null, role: 'assistant', content: '', status: 'streaming', model_id: 'mdl_x', routing: null, now });
});
afterEach(() => core.remove());

/** The chat message store, over the real repositories; `usageUser` is whom the usage is recorded for. */
function messageStore(usageUser = () => userId): AnswerStore {
  const { repos } = core;
  const now = () => new Date().toISOString();
  return {
    appendText: (text) => void repos.messages.append(messageId, text, now()),
    saveEnd: (end) =>
      void repos.messages.finish(messageId, {
        content: end.content,
        status: end.status,
        citations: [],
        input_tokens: end.usage.input_tokens,
        output_tokens: end.usage.output_tokens,
        error_code: end.failure?.code ?? null,
        error_detail: end.failure?.detail ?? null,
        now: now(),
      }),
    recordUsage: (usage) => repos.usage.record({ user_id: usageUser(), model_id: 'mdl_x', source: 'chat', message_id: messageId, ...usage, created_at: now() }),
  };
}

const stored = () => core.repos.messages.get(messageId);
const usage = () => core.repos.usage.listByUser(userId).filter((u) => u.message_id === messageId);

describe('writeAnswer', () => {
  it('saves the text on each tick of its timer, only when it changed, and stops the timer at the end', async () => {
    const source = new Source();
    const timer = manualTimer();
    const streamed: string[] = [];
    const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', timer }, source, new AbortController().signal, { onDelta: (t) => streamed.push(t) });
    source.delta('Hello');
    source.delta(', world');
    await expect.poll(() => streamed.length).toBe(2);
    expect(stored()?.content).toBe('');
    timer.tick();
    expect(stored()).toMatchObject({ content: 'Hello, world', status: 'streaming' });
    source.delta('!');
    await expect.poll(() => streamed.length).toBe(3);
    timer.tick();
    expect(stored()?.content).toBe('Hello, world!');
    source.push({ type: 'usage', input_tokens: 7, output_tokens: 3 });
    source.push(null);
    const end = await done;
    expect(timer.running).toBe(false);
    expect(end).toMatchObject({ status: 'complete', failure: null, usage: { input_tokens: 7, output_tokens: 3 } });
    expect(stored()).toMatchObject({ content: 'Hello, world!', status: 'complete', input_tokens: 7, output_tokens: 3 });
    expect(usage()).toMatchObject([{ input_tokens: 7, output_tokens: 3, source: 'chat' }]);
  });

  it('saves the end and the usage in one transaction: when the usage cannot be stored, neither is the end', async () => {
    const source = new Source();
    const timer = manualTimer();
    // A user that does not exist: the usage row breaks its foreign key, so the transaction fails.
    const done = writeAnswer({ store: messageStore(() => 'usr_gone'), transaction: core.repos.transaction, prompt: 'q', timer }, source, new AbortController().signal, { onDelta: () => {} });
    source.delta('Partial');
    source.push(null);
    await expect(done).rejects.toThrow();
    expect(stored()).toMatchObject({ status: 'streaming', content: '' });
    expect(usage()).toEqual([]);
  });

  it('a failure mid-stream ends as error with its code and the text so far; usage is estimated when none was reported', async () => {
    const source = new Source();
    const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'a question of some words', timer: manualTimer() }, source, new AbortController().signal, { onDelta: () => {} });
    source.delta('Half an ans');
    source.push(new AnswerFailed('upstream_error', 'the upstream dropped the connection'));
    const end = await done;
    expect(end.status).toBe('error');
    expect(stored()).toMatchObject({ status: 'error', content: 'Half an ans', error_code: 'upstream_error', error_detail: 'the upstream dropped the connection' });
    expect(usage()[0]?.output_tokens).toBeGreaterThan(0);
    expect(usage()[0]?.input_tokens).toBeGreaterThan(0);
  });

  it('an unexpected exception is an internal error, not a lost answer', async () => {
    const source = new Source();
    const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', timer: manualTimer() }, source, new AbortController().signal, { onDelta: () => {} });
    source.push(new TypeError('boom'));
    await done;
    expect(stored()).toMatchObject({ status: 'error', error_code: 'internal' });
    expect(stored()?.error_detail).toMatch(/boom/);
  });

  it('a cancel ends as cancelled (no error); a shutdown as interrupted, its text kept', async () => {
    for (const [reason, status, code] of [
      ['cancel', 'cancelled', null],
      ['shutdown', 'interrupted', INTERRUPTED.code],
    ] as const) {
      core.repos.messages.insert({ id: `msg_${reason}`, thread_id: 'thr_t', parent_id: null, role: 'assistant', content: '', status: 'streaming', model_id: 'mdl_x', routing: null, now: new Date().toISOString() });
      messageId = `msg_${reason}`;
      const controller = new AbortController();
      const source = new Source();
      // As providers are read: until the signal aborts (answers/coalesce.ts).
      const streamed: string[] = [];
      const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', timer: manualTimer() }, coalesceDeltas(source, controller.signal), controller.signal, {
        onDelta: (text) => streamed.push(text),
      });
      source.delta('So far');
      await expect.poll(() => streamed).toEqual(['So far']);
      controller.abort(reason);
      await done;
      expect(stored()).toMatchObject({ status, content: 'So far', error_code: code });
    }
  });

  it('each save appends only the text since the last one (issue 27: a long answer was rewritten whole every 250 ms)', async () => {
    const appended: string[] = [];
    const store = messageStore();
    const source = new Source();
    const timer = manualTimer();
    const streamed: string[] = [];
    const done = writeAnswer({ store: { ...store, appendText: (text) => (appended.push(text), store.appendText(text)) }, transaction: core.repos.transaction, prompt: 'q', timer }, source, new AbortController().signal, {
      onDelta: (t) => streamed.push(t),
    });
    for (const piece of ['one ', 'two ', 'three']) {
      source.delta(piece);
      await expect.poll(() => streamed.length).toBe(appended.length + 1);
      timer.tick();
      timer.tick();
    }
    expect(appended).toEqual(['one ', 'two ', 'three']);
    expect(stored()).toMatchObject({ content: 'one two three', status: 'streaming' });
    source.push(null);
    await done;
    expect(stored()).toMatchObject({ content: 'one two three', status: 'complete' });
  });

  it('stops at the byte ceiling, keeping the text up to it (never half a character), and ends as answer_too_long', async () => {
    const source = new Source();
    const streamed: string[] = [];
    // 'é' is two bytes: 14 bytes hold 'Begun, ' (7) and three of them, not half of a fourth.
    const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', prefix: 'Begun, ', timer: manualTimer(), maxBytes: 14 }, source, new AbortController().signal, {
      onDelta: (t) => streamed.push(t),
    });
    source.delta('éé');
    source.delta('éééé');
    const end = await done;
    expect(end).toMatchObject({ status: 'error', content: 'Begun, ééé', failure: { code: 'answer_too_long' } });
    expect(streamed).toEqual(['éé', 'é']);
    expect(stored()).toMatchObject({ status: 'error', content: 'Begun, ééé', error_code: 'answer_too_long' });
  });

  it('a long answer whose deltas are already buffered lets the event loop turn every TURN_TEXT_BYTES of text (issue 27: three runaway answers held /api/health for 300–500 ms)', async () => {
    const delta = 'x'.repeat(512);
    const deltas = (TURN_TEXT_BYTES / delta.length) * 10;
    // Every delta at once, as a socket that filled while Parley was busy hands them over.
    async function* buffered(): AsyncIterable<TextEvent> {
      for (let i = 0; i < deltas; i++) yield { type: 'delta', text: delta };
    }
    let pauses = 0;
    const end = await writeAnswer(
      { store: messageStore(), transaction: core.repos.transaction, prompt: 'q', timer: manualTimer(), maxBytes: 10 * 1024 * 1024, pause: async () => void pauses++ },
      buffered(),
      new AbortController().signal,
      { onDelta: () => {} },
    );
    expect(end.content.length).toBe(deltas * delta.length);
    expect(pauses).toBe(10);
  });

  it('another request’s turn of the event loop comes in the middle of such an answer, not after it', async () => {
    const delta = 'y'.repeat(1024);
    const deltas = (TURN_TEXT_BYTES / delta.length) * 4;
    let written = 0;
    async function* buffered(): AsyncIterable<TextEvent> {
      for (let i = 0; i < deltas; i++) yield { type: 'delta', text: delta };
    }
    let seenByOther = -1;
    setImmediate(() => (seenByOther = written));
    await writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', timer: manualTimer(), maxBytes: 10 * 1024 * 1024 }, buffered(), new AbortController().signal, {
      onDelta: (t) => (written += t.length),
    });
    expect(seenByOther).toBeGreaterThan(0);
    expect(seenByOther).toBeLessThan(deltas * delta.length);
  });

  it('a continued answer keeps its prefix and adds to it', async () => {
    const source = new Source();
    const done = writeAnswer({ store: messageStore(), transaction: core.repos.transaction, prompt: 'q', prefix: 'Begun, ', timer: manualTimer() }, source, new AbortController().signal, { onDelta: () => {} });
    source.delta('and ended.');
    source.push(null);
    await done;
    expect(stored()?.content).toBe('Begun, and ended.');
  });
});
