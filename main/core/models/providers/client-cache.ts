import { LRUCache } from 'lru-cache';

/**
 * Keeps SDK clients per endpoint and key, so each call does not rebuild one (and its connection
 * pool). Bounded: the least recently used client goes first.
 */
export function clientCache<T extends object>(create: (baseURL: string | null, apiKey: string | null) => T, max = 32) {
  const clients = new LRUCache<string, T>({ max });
  return (baseURL: string | null, apiKey: string | null): T => {
    const key = JSON.stringify([baseURL, apiKey]);
    let client = clients.get(key);
    if (!client) {
      client = create(baseURL, apiKey);
      clients.set(key, client);
    }
    return client;
  };
}
