import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followStored } from '../../../main/core/conversation/chat/stored-stream.js';
import { bootTestCore } from '../../support/core.js';

/** Following an answer another instance writes (the team server), over a real core's repositories. */
describe('following a stored answer', () => {
  let core: ReturnType<typeof bootTestCore>;
  beforeEach(() => {
    core = bootTestCore();
    const user = core.desktopCaller().user;
    const now = new Date().toISOString();
    core.repos.threads.insert({ id: 'thr_f', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
    core.repos.messages.insert({ id: 'msg_f', thread_id: 'thr_f', parent_id: null, role: 'assistant', content: 'so far', status: 'streaming', model_id: 'mdl_x', routing: null, now });
  });
  afterEach(() => core.remove());

  it('gives up with `unavailable` once nothing new was stored for its stall time, having sent what there was', async () => {
    const row = core.repos.messages.get('msg_f')!;
    // A clock that moves a minute each time it is read: the second read finds two minutes without change.
    let minutes = 0;
    const events = [];
    for await (const event of followStored(core, row, { pollMs: 0, stalledMs: 90_000 }, () => 60_000 * minutes++)) events.push(event);
    expect(events.map((e) => e.event)).toEqual(['message.created', 'delta', 'error']);
    expect(events[1]?.data).toEqual({ content: 'so far' });
    expect(events[2]?.data).toMatchObject({ code: 'unavailable', message_id: 'msg_f' });
  });

  it('sends each piece stored while it follows, then the end, without waiting for a stall', async () => {
    const row = core.repos.messages.get('msg_f')!;
    let reads = 0;
    const now = () => {
      // The writing instance stores a piece, then finishes, between the follower's reads.
      if (reads === 1) core.repos.messages.append('msg_f', ' and more', new Date().toISOString());
      if (reads === 2) core.db.prepare("UPDATE messages SET status = 'complete' WHERE id = 'msg_f'").run();
      return reads++;
    };
    const events = [];
    for await (const event of followStored(core, row, { pollMs: 0, stalledMs: 1_000_000 }, now)) events.push(event);
    expect(events.map((e) => e.event)).toEqual(['message.created', 'delta', 'delta', 'message.completed']);
    expect(events.filter((e) => e.event === 'delta').map((e) => (e.data as { content: string }).content).join('')).toBe('so far and more');
  });
});
