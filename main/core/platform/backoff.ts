/**
 * The one back-off policy for retrying something that failed on the far side (a model download,
 * an MCP server's restart): 1 s after the first failure in a row, doubling, at most a minute — a
 * minute is the longest anything waits once the far side is back.
 *
 * Only the delay is shared, not a retry loop (such as cockatiel's `retry(handleAll, { backoff })`):
 * each loop waits on timers its tests drive by hand, shows when it will try again (`retry_at`,
 * `next_retry_at`) before it waits, and decides per failure whether to try again at all (a 404 is
 * final, a server's 5xx counts against `maxRetries`, a dropped connection against `giveUpAfterMs`).
 * No jitter: one Parley retries one download or one server, so there is no herd to spread.
 */
export function exponentialBackoff(firstMs = 1000, maxMs = 60_000): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

/** Milliseconds to wait before try `attempt` + 1 after `attempt` (1, 2, …) failures in a row: 1 s, 2 s, 4 s … 60 s. */
export const backoffMs = exponentialBackoff();
