import { describe, expect, it } from 'vitest';
import { foldLikePostgres } from '../../../main/db/postgres/fold.js';
import { foldAccents } from '../../../main/db/repositories/message-search.js';

// Chunk search on PostgreSQL folds accents with translate() (one character for one); thread search
// folds them in JavaScript. The two must agree on text written in composed characters.
describe('accent folding on PostgreSQL', () => {
  it('agrees with thread search on Latin, Greek and Cyrillic, and keeps every other script and the length', () => {
    const samples = ['Crème brûlée à Zürich, façade, Ångström, Łódź, Tiếng Việt', 'Ἀθῆναι καὶ ἡ Ἑλλάς, άέήίόύώ', 'Ёлка, йогурт', 'नमस्ते, ภาษาไทย, 東京, naïve 123'];
    for (const text of samples) {
      expect(foldLikePostgres(text)).toBe(foldAccents(text));
      expect(foldLikePostgres(text)).toHaveLength(text.length);
    }
    expect(foldLikePostgres('Crème brûlée')).toBe('Creme brulee');
  });
});
