/**
 * Lowercased, diacritics removed as the index's tokenizer removes them (`remove_diacritics 2`),
 * so that `Parkgebuhren` meets `Parkgebühren`; ASCII text is only lowercased.
 */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}
