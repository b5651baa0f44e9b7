import { hasSpacelessScript, wordList } from '../../../../shared/words.js';

/** A run of a passage's text, marked when it is one of the question's words. */
export interface MarkRun {
  text: string;
  marked: boolean;
}

/** The question's words to look for in a passage, split as the index splits them. */
export interface MarkWords {
  /** Marked wherever they occur: words of three letters or more, or of two in a spaceless script. */
  words: string[];
  /**
   * One-character words of a spaceless script (会議室 → 会議|室, the particle は, 是): marked only
   * where they touch a marked word, so 会議室 is marked whole but は is not marked everywhere.
   */
  joiners: string[];
}

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The question's words worth marking in a passage (the index's words, so a Chinese question marks its words too). */
export function markWords(query: string): MarkWords {
  const words = new Set<string>();
  const joiners = new Set<string>();
  for (const word of wordList(query)) {
    const spaceless = hasSpacelessScript(word);
    // Counted in code points: an astral Han character is one character.
    const length = [...word].length;
    if (length >= 3 || (spaceless && length === 2)) words.add(word);
    else if (spaceless) joiners.add(word);
  }
  // A question of one-character words only (猫) still marks them.
  if (words.size === 0) return { words: [...joiners], joiners: [] };
  return { words: [...words], joiners: [...joiners] };
}

/** `text` cut into runs, the question's words marked (neighbouring marks joined into one run). */
export function markedRuns(text: string, { words, joiners }: MarkWords): MarkRun[] {
  if (words.length === 0 || text === '') return [{ text, marked: false }];
  // Longest first, so the alternation prefers 会議室 over 会議 when both are words.
  const all = [...words, ...joiners].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(all.map(escaped).join('|'), 'giu');
  const joiner = new Set(joiners);
  const spans: { start: number; end: number; strong: boolean }[] = [];
  for (const match of text.matchAll(pattern)) {
    spans.push({ start: match.index, end: match.index + match[0].length, strong: !joiner.has(match[0].toLowerCase()) });
  }
  // Touching spans become one; a group is marked when it holds a word that is not a joiner.
  const groups: { start: number; end: number; strong: boolean }[] = [];
  for (const span of spans) {
    const last = groups.at(-1);
    if (last && last.end === span.start) {
      last.end = span.end;
      last.strong ||= span.strong;
    } else groups.push({ ...span });
  }
  const runs: MarkRun[] = [];
  let at = 0;
  for (const group of groups) {
    if (!group.strong) continue;
    if (group.start > at) runs.push({ text: text.slice(at, group.start), marked: false });
    runs.push({ text: text.slice(group.start, group.end), marked: true });
    at = group.end;
  }
  if (at < text.length) runs.push({ text: text.slice(at), marked: false });
  return runs;
}
