/** `#/chat/thr_abc` → `thr_abc`; the route itself is parsed by app/routes.ts, which reads only `chat`. */
export function threadFromHash(hash: string): string | null {
  const match = /^#\/chat\/(thr_[A-Za-z0-9]+)/.exec(hash);
  return match ? (match[1] as string) : null;
}

/** `#/chat/thr_abc?m=msg_xyz` → `msg_xyz`: the message a thread search found, to scroll to and highlight. */
export function messageFromHash(hash: string): string | null {
  const match = /^#\/chat\/thr_[A-Za-z0-9]+\?(?:.*&)?m=(msg_[A-Za-z0-9]+)/.exec(hash);
  return match ? (match[1] as string) : null;
}

export function threadHref(threadId: string | null, messageId?: string): string {
  if (!threadId) return '#/chat';
  return messageId ? `#/chat/${threadId}?m=${messageId}` : `#/chat/${threadId}`;
}
