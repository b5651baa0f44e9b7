/**
 * Keeps SDK clients per endpoint and key, so each call does not rebuild one (and its connection
 * pool). Bounded: the least recently used client goes first.
 */
export function clientCache<T>(create: (baseURL: string | null, apiKey: string | null) => T, max = 32) {
  const clients = new Map<string, T>();
  return (baseURL: string | null, apiKey: string | null): T => {
    const key = JSON.stringify([baseURL, apiKey]);
    let client = clients.get(key);
    if (client) {
      clients.delete(key);
    } else {
      client = create(baseURL, apiKey);
      if (clients.size >= max) clients.delete(clients.keys().next().value as string);
    }
    clients.set(key, client);
    return client;
  };
}
