import type { StreamHubPort } from '../platform/ports/answers.js';
import type { NoticesPort } from '../platform/ports/notices.js';

/** How long a cancel waits for another instance to store the answer it asked to stop (none may answer: it died). */
export const REMOTE_CANCEL_WAIT_MS = 10_000;

type Live = { hub: StreamHubPort; notices: NoticesPort };

/**
 * Cancels the answer `id` (a chat message or a comparison) wherever it is being written: here,
 * through the hub; on another instance sharing the database, by asking it (`answer.cancel`) and
 * waiting until it says the answer is stored (`answer.ended`) or `waitMs` passed. `writing` reads
 * the database: whether the answer is still being written somewhere. Resolves once it is stored
 * (or nobody answered in time: an instance that died leaves its answers to the takeover).
 */
export async function cancelAnywhere({ hub, notices }: Live, id: string, writing: () => boolean, waitMs = REMOTE_CANCEL_WAIT_MS): Promise<void> {
  if (await hub.cancel(id)) return;
  if (!notices.shared || !writing()) return;
  let off = (): void => {};
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<void>((resolve) => {
    off = notices.on('answer.ended', (ended) => ended === id && resolve());
    timer = setTimeout(resolve, waitMs);
    timer.unref();
  });
  try {
    // Stored between the first look and listening: its `answer.ended`, if any, went before we heard.
    if (!writing()) return;
    notices.publish('answer.cancel', id);
    await ended;
  } finally {
    off();
    clearTimeout(timer);
  }
}

/**
 * This instance's side: an `answer.cancel` for an answer it has in memory stops it as a local
 * cancel does (text so far kept, `cancelled`), then says it is stored. An answer that just ended
 * here is answered too, so the asking instance does not wait for nothing.
 */
export function answerCancels({ hub, notices }: Live): () => void {
  return notices.on('answer.cancel', (id) => {
    if (!hub.holds(id)) return;
    void hub.cancel(id).then(() => notices.publish('answer.ended', id));
  });
}
