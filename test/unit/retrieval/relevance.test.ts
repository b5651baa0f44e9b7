import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexEmbeddings, searchHybrid, searchKeyword, type KeywordOptions } from '../../../main/search/index.js';
import type { SearchHit } from '../../../main/search/types.js';
import { DOCUMENTS } from '../../fixtures/corpus/documents.js';
import { QUESTIONS } from '../../fixtures/corpus/questions.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { corpusDb } from './setup.js';

const TOP = 3;
const REQUIRED = 0.9;

/** Share of questions whose labelled document is in the top 3; the misses are printed. */
async function score(label: string, search: (question: string) => SearchHit[] | Promise<SearchHit[]>): Promise<number> {
  const misses: string[] = [];
  for (const { question, answer } of QUESTIONS) {
    const hits = await search(question);
    const keys = hits.slice(0, TOP).map((h) => h.artifact_key);
    if (!keys.includes(answer)) misses.push(`  ✗ "${question}" → wanted ${answer}, got [${keys.join(', ')}]`);
  }
  const share = (QUESTIONS.length - misses.length) / QUESTIONS.length;
  console.log(`relevance (${label}): ${QUESTIONS.length - misses.length}/${QUESTIONS.length} in the top ${TOP} (${(share * 100).toFixed(1)}%)${misses.length ? `\n${misses.join('\n')}` : ''}`);
  return share;
}

describe('retrieval relevance on the labelled corpus', () => {
  let c: ReturnType<typeof corpusDb>;
  beforeAll(() => {
    c = corpusDb();
  });
  afterAll(() => c.close());

  it('has at least 30 questions, each labelled with a document of the corpus', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(30);
    const keys = new Set(DOCUMENTS.map((d) => d.key));
    for (const q of QUESTIONS) expect(keys.has(q.answer)).toBe(true);
  });

  it('keyword search puts the right artifact in the top 3 for at least 90% of questions', async () => {
    const share = await score('keyword', (text) => searchKeyword(c, { kb_ids: [c.kb], text, limit: TOP }));
    expect(share).toBeGreaterThanOrEqual(REQUIRED);
  });

  it('still does under pruning as aggressive as at a million chunks (budgets scaled to this corpus)', async () => {
    // ~90 chunks here: selecting terms may match at most ~4 chunks, and IDF counting is tight, so
    // most terms only boost or nudge, as common words do at scale.
    const pruned: KeywordOptions = { scoreBudget: 4, idfBudget: 14, nudgeDepth: 10 };
    const share = await score('keyword, aggressive pruning', (text) => searchKeyword(c, { kb_ids: [c.kb], text, limit: TOP }, pruned));
    expect(share).toBeGreaterThanOrEqual(REQUIRED);
  });

  it('hybrid search (hashed bag-of-words embeddings, sqlite-vec, RRF) keeps it', async () => {
    const embed = hashedEmbedder(128);
    expect(await indexEmbeddings(c, embed, { model: 'hashed-128' })).toBeGreaterThan(0);
    const share = await score('hybrid', (text) => searchHybrid(c, { kb_ids: [c.kb], text, limit: TOP }, embed));
    expect(share).toBeGreaterThanOrEqual(REQUIRED);
  });
});
