/**
 * The passage numbers an answer cites: every `[n]`, also written `[1, 3]` or `[1-3]`/`[1–3]`.
 * Shared by the service (which keeps only the cited passages with a finished answer, or attributes
 * one without marks by its words) and the renderer (which lists them, and links each mark).
 */
export function citedIndices(text: string): Set<number> {
  const cited = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3}(?:\s*(?:[,;]|[-–])\s*\d{1,3})*)\]/g)) {
    for (const part of (match[1] ?? '').split(/\s*[,;]\s*/)) {
      const [from, to] = part.split(/\s*[-–]\s*/).map(Number);
      if (from === undefined || Number.isNaN(from)) continue;
      const last = to !== undefined && !Number.isNaN(to) && to >= from && to - from < 50 ? to : from;
      for (let n = from; n <= last; n++) cited.add(n);
    }
  }
  return cited;
}

/** The citations whose passage the text cites, in their order. */
export function citedOnly<C extends { index: number }>(citations: readonly C[], text: string): C[] {
  const cited = citedIndices(text);
  return citations.filter((c) => cited.has(c.index));
}

/**
 * The sources an answer shows: the passages its `[n]` name, and those the service attributed to
 * it without a marker (`attribution: "overlap"`, streamed before the answer ends and kept with it),
 * each once, in the order given.
 */
export function shownCitations<C extends { index: number; attribution?: string | undefined }>(citations: readonly C[], text: string): C[] {
  const cited = citedIndices(text);
  const seen = new Set<number>();
  return citations.filter((c) => (cited.has(c.index) || c.attribution === 'overlap') && !seen.has(c.index) && seen.add(c.index));
}
