/** Names a loopback server may be reached by. Anything else is a DNS-rebinding attempt or a proxy. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `Host` header → whether it names this machine's loopback (any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host.trim());
  if (!match) return false;
  const name = (match[1] ?? '').toLowerCase();
  return LOOPBACK_HOSTS.has(name) || /^127(\.\d{1,3}){3}$/.test(name);
}
