import { afterEach, describe, expect, it } from 'vitest';
import { planKeyword, questionWords, searchKeyword } from '../../../main/search/index.js';
import { rescore } from '../../../main/search/keyword/rescore.js';
import { corpusDb, retrievalDb, type RetrievalDb } from './setup.js';

/** One sentence each in Chinese, Japanese, Thai, German and Russian, one paragraph (one chunk) each. */
export const SENTENCES = {
  chinese: '员工每周可以远程办公两天，设备补贴是一千二百欧元。',
  japanese: '会議室の予約は総務部が管理します。',
  thai: 'ที่จอดรถอยู่ชั้นล่างของอาคารสำนักงาน',
  german: 'Die Parkgebühren betragen fünf Euro pro Tag.',
  russian: 'Сотрудники получают компенсацию за проезд каждый месяц.',
};
const FILE = Object.values(SENTENCES).join('\n\n');

const open: RetrievalDb[] = [];
afterEach(() => open.splice(0).forEach((r) => r.close()));

/** The labelled English corpus and the file of five languages, in one knowledge base. */
function withFile() {
  const r = corpusDb();
  open.push(r);
  r.addDocument(r.kb, 'policy.txt', FILE);
  return r;
}

describe('keyword search in every script', () => {
  // Each word sits inside its sentence: before ICU's words were indexed, a Chinese, Japanese or Thai sentence was one token.
  const cases: Array<[string, keyof typeof SENTENCES, string]> = [
    ['远程办公', 'chinese', '远程办公'],
    ['设备补贴是多少', 'chinese', '设备补贴'],
    ['会議室', 'japanese', '会議室'],
    ['総務部', 'japanese', '総務部'],
    ['ที่จอดรถ', 'thai', 'ที่จอดรถ'],
    ['Parkgebühren', 'german', 'Parkgebühren'],
    ['Parkgebuhren', 'german', 'Parkgebühren'],
    ['компенсацию', 'russian', 'компенсацию'],
  ];
  it.each(cases)('finds %s inside its sentence, first, with a snippet around it', (query, language, shown) => {
    const r = withFile();
    // A short snippet, so that it has to be placed around the word rather than be the whole sentence.
    const hits = searchKeyword(r, { kb_ids: [r.kb], text: query, limit: 5 }, { snippetTokens: 4 });
    expect(hits[0]?.text).toBe(SENTENCES[language]);
    // The snippet is a window around the word (a few words), not the sentence's lead.
    expect(hits[0]?.snippet).toContain(shown);
    expect(hits[0]?.snippet.length).toBeLessThan(SENTENCES[language].length);
  });

  it('finds a question asked as a sentence, with its particles and question words', () => {
    const r = withFile();
    expect(searchKeyword(r, { kb_ids: [r.kb], text: '会議室はどこですか？', limit: 1 })[0]?.text).toBe(SENTENCES.japanese);
    expect(searchKeyword(r, { kb_ids: [r.kb], text: '远程办公是什么？', limit: 1 })[0]?.text).toBe(SENTENCES.chinese);
    expect(searchKeyword(r, { kb_ids: [r.kb], text: 'ที่จอดรถอยู่ที่ไหน', limit: 1 })[0]?.text).toBe(SENTENCES.thai);
  });
});

describe('question words in every script', () => {
  it('keeps what a question is about and drops its particles and question words, English as before', () => {
    expect(questionWords('设备补贴是多少？')).toEqual({ words: ['设备', '补贴'], stop: ['是', '多少'] });
    expect(questionWords('会議室はどこですか').words).toEqual(['会議', '室']);
    expect(questionWords('ที่จอดรถอยู่ที่ไหน').words).toEqual(['จอด', 'รถ']);
    expect(questionWords('What is the parking fee in the Café?')).toEqual({ words: ['parking', 'fee', 'café'], stop: ['what', 'is', 'the', 'in'] });
  });
});

describe('rescoring terms in every script', () => {
  // Terms inside runs of Han, Kana and Thai, next to digits and Latin letters: a word-start test on the text cannot see them.
  const TEXTS = [
    '会議室の予約は総務部が管理します。会議は毎週あります。',
    '2024年の会議室：会議、会議室、大会議室。Parley会議',
    '设备补贴是一千二百欧元，远程办公每周两天。设备',
    'ที่จอดรถอยู่ชั้นล่าง จอดรถได้ที่นี่ รถ',
  ];

  it('adds each term’s exact bm25 part, as FTS5 scores it', () => {
    const r = retrievalDb();
    open.push(r);
    const kb = r.addKb('Scripts');
    TEXTS.forEach((text, i) => r.addDocument(kb, `t${i}.txt`, text));
    for (let i = 0; i < 20; i++) r.addDocument(kb, `filler${i}.md`, `plain words about nothing in particular, number ${i}`);
    const ids = (r.db.prepare('SELECT id FROM chunks ORDER BY id').all() as Array<{ id: number }>).map((x) => x.id);
    const part = r.db.prepare<[string, bigint], { s: number }>('SELECT bm25(chunks_fts) AS s FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?');
    const plan = planKeyword(r.chunks, '会議 设备 补贴 総務 จอด รถ', r.chunks.kbRanges([kb]), { maxTerms: 0, maxNudgeTerms: 12 });
    const terms = [...plan.select, ...plan.boost, ...plan.nudge, ...plan.dropped];
    expect(terms.map((t) => t.word).sort()).toEqual(['会議', '総務', '补贴', '设备', 'จอด', 'รถ'].sort());
    const got = rescore(r.chunks, ids.map((id) => ({ id, score: 0.5 })), terms, ids.length, ids.length);
    let holding = 0;
    for (const { id, score } of got) {
      const expected = terms.reduce((n, t) => n - (part.get(t.fts, BigInt(id))?.s ?? 0), 0.5);
      if (expected > 0.5) holding++;
      expect(score, (r.db.prepare('SELECT text FROM chunks WHERE id = ?').get(id) as { text: string }).text).toBeCloseTo(expected, 9);
    }
    expect(holding).toBe(TEXTS.length);
  });
});
