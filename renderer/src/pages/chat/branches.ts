import type { Message } from './types.js';

/** A message on the branch shown, and where it sits among the versions that answer the same message. */
export interface ShownMessage {
  message: Message;
  /** 0-based position among its versions (siblings: same parent), oldest first. */
  version: number;
  /** The ids of all its versions, oldest first (one: no choice to make). */
  versions: string[];
  /** The fork it is a version at (its parent's id, or ROOT): the key of a choice. */
  fork: string;
}

/** Which version the reader picked at a fork: parent id (or ROOT) → the chosen child's id. */
export type BranchChoices = ReadonlyMap<string, string>;

export const ROOT = '';

/**
 * The one branch to show of a thread whose messages (oldest first) form a tree by `parent_id`
 * (an edited question, a regenerated answer start another version). At each fork the reader's
 * choice wins; otherwise the version that leads to the thread's newest message, so the default
 * view ends where the conversation last went — as ChatGPT and Claude show it.
 */
export function shownBranch(messages: readonly Message[], choices: BranchChoices = new Map()): ShownMessage[] {
  const ids = new Set(messages.map((m) => m.id));
  const children = new Map<string, Message[]>();
  const parentKey = new Map<string, string>();
  messages.forEach((m, i) => {
    // A parent not in the list (never expected) is read as the message before, so nothing is lost from view.
    const key = m.parent_id !== null && ids.has(m.parent_id) ? m.parent_id : m.parent_id === null ? ROOT : (messages[i - 1]?.id ?? ROOT);
    parentKey.set(m.id, key);
    const list = children.get(key);
    if (list) list.push(m);
    else children.set(key, [m]);
  });
  // The newest message (its index) in each message's subtree: children come after their parent.
  const latest = new Map<string, number>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    const own = Math.max(latest.get(m.id) ?? i, i);
    latest.set(m.id, own);
    const key = parentKey.get(m.id) ?? ROOT;
    if (key !== ROOT) latest.set(key, Math.max(latest.get(key) ?? -1, own));
  }
  const shown: ShownMessage[] = [];
  const seen = new Set<string>();
  let key = ROOT;
  for (;;) {
    const kids = children.get(key);
    if (!kids || kids.length === 0) break;
    const chosenId = choices.get(key);
    const pick = kids.find((k) => k.id === chosenId) ?? kids.reduce((a, b) => ((latest.get(b.id) ?? 0) >= (latest.get(a.id) ?? 0) ? b : a));
    if (seen.has(pick.id)) break;
    seen.add(pick.id);
    shown.push({ message: pick, version: kids.indexOf(pick), versions: kids.map((k) => k.id), fork: key });
    key = pick.id;
  }
  return shown;
}
