/** `#/chat/thr_abc` → `thr_abc`; the route itself is parsed by app/routes.ts, which reads only `chat`. */
export function threadFromHash(hash: string): string | null {
  const match = /^#\/chat\/(thr_[A-Za-z0-9]+)/.exec(hash);
  return match ? (match[1] as string) : null;
}

export function threadHref(threadId: string | null): string {
  return threadId ? `#/chat/${threadId}` : '#/chat';
}
