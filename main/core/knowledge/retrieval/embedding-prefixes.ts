/**
 * Some embedding models were trained with a task prefix on each text, and rank poorly without it:
 * the question and the passages must each carry theirs. The family is recognised by the model's
 * names (GGUF `general.name` / `general.basename`, the file name, or a remote model's name).
 */
export interface EmbeddingPrefixes {
  /** The family, part of the vector index's identity: vectors made with other prefixes do not mix. */
  family: string;
  /** Put before a question (search). */
  query: string;
  /** Put before a passage (indexing). */
  passage: string;
}

const TEMPLATES: ReadonlyArray<{ pattern: RegExp; prefixes: EmbeddingPrefixes }> = [
  { pattern: /nomic[-_ ]?embed/i, prefixes: { family: 'nomic', query: 'search_query: ', passage: 'search_document: ' } },
  // e5 (e5-small-v2, multilingual-e5-*), but not e5-mistral (an instruction model of another kind).
  { pattern: /(^|[^a-z0-9])(multilingual[-_ ])?e5[-_ ](?!mistral)/i, prefixes: { family: 'e5', query: 'query: ', passage: 'passage: ' } },
  // BGE v1.5 English models: an instruction on short queries, nothing on passages (bge-m3 needs none).
  { pattern: /bge[-_ ](small|base|large)[-_ ]en/i, prefixes: { family: 'bge', query: 'Represent this sentence for searching relevant passages: ', passage: '' } },
];

/** The prefixes of the first family any of `names` belongs to; undefined when none is known (MiniLM and most others need none). */
export function embeddingPrefixes(names: ReadonlyArray<string | null | undefined>): EmbeddingPrefixes | undefined {
  for (const name of names) {
    if (!name) continue;
    // Only the last path segment: a folder's name says nothing about the file in it.
    const base = name.split(/[\\/]/).at(-1) ?? name;
    const found = TEMPLATES.find((t) => t.pattern.test(base));
    if (found) return found.prefixes;
  }
  return undefined;
}
