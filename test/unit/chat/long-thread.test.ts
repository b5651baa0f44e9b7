/**
 * Issue 27, item 3: a long thread must cost one bounded read, not the whole thread on every chat,
 * and deleting it must not hold the event loop for seconds. Messages are inserted straight through
 * the repositories (the API would take minutes to build such a thread).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyBudgetChars } from '../../../main/core/conversation/chat/branch.js';
import { startChatHarness, type Harness } from '../../support/chat.js';
import { bootTestCore } from '../../support/core.js';

interface ChatAnswer {
  thread_id: string;
  message: { content: string; status: string };
}

/** Inserts `count` messages in one branch, user and assistant in turn, each `size` characters starting with `m<n>`. */
function fillThread(repos: Harness['core']['repos'], threadId: string, count: number, size: number, prefix = 'msg_long'): string[] {
  const ids: string[] = [];
  const now = new Date().toISOString();
  repos.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `${prefix}${i}`;
      const head = `m${String(i).padStart(3, '0')} `;
      repos.messages.insert({
        id,
        thread_id: threadId,
        parent_id: ids.at(-1) ?? null,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: head + 'x'.repeat(size - head.length),
        status: 'complete',
        model_id: null,
        routing: null,
        now,
      });
      ids.push(id);
    }
  });
  return ids;
}

describe('a long thread', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startChatHarness();
  });
  afterAll(() => h.close());

  it('is read newest first only as far as the model’s context reaches; the model gets the newest messages that fit', async () => {
    // 20,000 tokens of context: about 80,000 characters of history are worth reading.
    const model = await h.addModel('Context 20k', 'context', { capabilities: { quality: 6, strengths: ['general'], context_tokens: 20_000 } });
    const thread = (await h.json<{ id: string }>('/threads', 'POST', { title: 'long' })).body;
    // 300 messages of 30,000 characters: 9 MB of thread.
    const ids = fillThread(h.core.repos, thread.id, 300, 30_000);

    // The read a chat makes: three messages (the third crosses the budget), not 300.
    const read = h.core.repos.messages.branch(thread.id, ids.at(-1) ?? null, historyBudgetChars(20_000));
    expect(read.map((m) => m.id)).toEqual(['msg_long297', 'msg_long298', 'msg_long299']);
    // A message is never read longer than the budget, however long it is stored.
    const small = h.core.repos.messages.branch(thread.id, ids.at(-1) ?? null, 1_000);
    expect(small.map((m) => [m.id, m.content.length])).toEqual([['msg_long299', 1_000]]);

    const res = await h.json<ChatAnswer>('/chat', 'POST', { thread_id: thread.id, message: 'And the next one?', model_endpoint_override: model });
    expect(res.status).toBe(200);
    expect(res.body.message.status).toBe('complete');
    // 30,000 characters are ~7,500 tokens: the two newest fit beside the question, the rest do not.
    expect(res.body.message.content).toBe(`3 messages: user: m298 ${'x'.repeat(25)}, assistant: m299 ${'x'.repeat(25)}, user: And the next one?`);
  });

  it('is read along its branch: a parent given by id bounds the read from there', async () => {
    const model = await h.addModel('Context branch', 'context', { capabilities: { quality: 6, strengths: ['general'], context_tokens: 20_000 } });
    const thread = (await h.json<{ id: string }>('/threads', 'POST', { title: 'branch' })).body;
    fillThread(h.core.repos, thread.id, 40, 30_000, 'msg_br');
    const res = await h.json<ChatAnswer>('/chat', 'POST', { thread_id: thread.id, parent_id: 'msg_br11', message: 'From here?', model_endpoint_override: model });
    expect(res.body.message.content).toBe(`3 messages: user: m010 ${'x'.repeat(25)}, assistant: m011 ${'x'.repeat(25)}, user: From here?`);
    const other = (await h.json<{ id: string }>('/threads', 'POST', { title: 'other' })).body;
    const refused = await h.json<{ code: string }>('/chat', 'POST', { thread_id: other.id, parent_id: 'msg_br11', message: 'x', model_endpoint_override: model });
    expect([refused.status, refused.body.code]).toEqual([404, 'not_found']);
  });
});

describe('deleting a long thread', () => {
  it('deletes its messages in batches, letting other work run between them', async () => {
    const core = bootTestCore();
    try {
      const owner = core.desktopCaller();
      const thread = (await core.service.invoke('threads.create', { title: 'huge' }, owner)) as { id: string };
      fillThread(core.repos, thread.id, 3_000, 10);
      const count = () => core.repos.messages.page(thread.id, 5_000, undefined)?.rows.length ?? 0;
      expect(count()).toBe(3_000);

      let ended = false;
      const deleting = core.service.invoke('threads.delete', { id: thread.id }, owner).then(() => (ended = true));
      // Other work gets turns while the delete is under way: it sees the thread part-deleted.
      const seen: number[] = [];
      while (!ended) {
        seen.push(count());
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await deleting;
      expect(seen.some((n) => n > 0 && n < 3_000)).toBe(true);
      expect(count()).toBe(0);
      expect(core.repos.threads.get(thread.id)).toBeUndefined();
    } finally {
      await core.remove();
    }
  });
});
