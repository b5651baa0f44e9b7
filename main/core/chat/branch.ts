import type { MessageRow } from '../../db/repositories/messages.js';

/**
 * The branch that ends at `lastId`, oldest first: the message, its parent, its parent's parent…
 * Messages of other branches (an answer that was regenerated, a question that was edited) are not
 * in it. A thread of a few thousand messages is one read and a walk through a map.
 */
export function branchTo(thread: readonly MessageRow[], lastId: string | null): MessageRow[] {
  if (lastId === null) return [];
  const byId = new Map(thread.map((m) => [m.id, m]));
  const branch: MessageRow[] = [];
  const seen = new Set<string>();
  let id: string | null = lastId;
  while (id !== null && !seen.has(id)) {
    const message = byId.get(id);
    if (!message) break;
    seen.add(id);
    branch.push(message);
    id = message.parent_id;
  }
  return branch.reverse();
}
