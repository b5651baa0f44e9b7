import { threadHref } from './chat-hash.js';

const KEY = 'parley.chat-with-datasets';

/** Opens a new chat with these datasets chosen (the "Chat with this dataset" action). */
export function chatWithDataset(datasetId: string): void {
  sessionStorage.setItem(KEY, JSON.stringify([datasetId]));
  window.location.hash = threadHref(null);
}

/** The datasets a "Chat with…" action left for the next new chat, taken once. */
export function takeChatWithDatasets(): string[] {
  const raw = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  try {
    const ids: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
