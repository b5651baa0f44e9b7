import { describe, expect, it } from 'vitest';
import { answerCancels, cancelAnywhere } from '../../../main/core/answering/cancel-anywhere.js';
import { StreamHub } from '../../../main/core/answering/hub.js';
import { LocalNotices } from '../../../main/db/notices.js';

/** Never reached by a passing test: a cancel that must not wait for its time. */
const NEVER_MS = 3_600_000;

/** Starts `id` on `hub` as an answer does: aborted, it stores its text (here: says so) and settles. */
function writing(hub: StreamHub, id: string) {
  const state = { stored: false, reason: undefined as unknown };
  const run = hub.start(id);
  run.signal.addEventListener('abort', () => {
    state.stored = true;
    state.reason = run.signal.reason;
    run.end();
  });
  return state;
}

/** The bus PostgreSQL's LISTEN/NOTIFY is between instances, here between two hubs of one process. */
class SharedBus extends LocalNotices {
  override readonly shared = true;
}

describe('cancelling an answer wherever it is written', () => {
  it('on SQLite (one process) stops the answer here and stores it, with no notice sent', async () => {
    const notices = new LocalNotices();
    const hub = new StreamHub();
    answerCancels({ hub, notices });
    const sent: string[] = [];
    notices.on('answer.cancel', (id) => sent.push(id));
    const answer = writing(hub, 'msg_1');
    await cancelAnywhere({ hub, notices }, 'msg_1', () => true, NEVER_MS);
    expect(answer).toEqual({ stored: true, reason: 'cancel' });
    expect(sent).toEqual([]);
    // Nothing written here, nothing shared: a stale "streaming" row is not waited for.
    await cancelAnywhere({ hub, notices }, 'msg_2', () => true, NEVER_MS);
  });

  it('asks the instance writing it, which stops it as a local cancel does; resolves once it is stored', async () => {
    const bus = new SharedBus();
    const writer = new StreamHub();
    const other = new StreamHub();
    answerCancels({ hub: writer, notices: bus });
    answerCancels({ hub: other, notices: bus });
    const answer = writing(writer, 'msg_1');
    await cancelAnywhere({ hub: other, notices: bus }, 'msg_1', () => !answer.stored, NEVER_MS);
    expect(answer).toEqual({ stored: true, reason: 'cancel' });
    expect(writer.isRunning('msg_1')).toBe(false);
  });

  it('is answered at once by the writer whose answer ended just before the cancel came', async () => {
    const bus = new SharedBus();
    const writer = new StreamHub();
    answerCancels({ hub: writer, notices: bus });
    writer.start('msg_1').end();
    // The asking instance read the row before the end was stored: it still looks written.
    await cancelAnywhere({ hub: new StreamHub(), notices: bus }, 'msg_1', () => true, NEVER_MS);
  });

  it('unsubscribes a handler, and delivers a notice only to its kind', () => {
    const notices = new LocalNotices();
    const heard: string[] = [];
    const off = notices.on('answer.ended', (id) => heard.push(id));
    notices.publish('answer.cancel', 'a');
    notices.publish('answer.ended', 'b');
    off();
    notices.publish('answer.ended', 'c');
    expect(heard).toEqual(['b']);
  });
});
