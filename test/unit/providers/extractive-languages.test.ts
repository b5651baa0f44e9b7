import { describe, expect, it } from 'vitest';
import { questionLanguage } from '../../../main/core/models/providers/answer-language.js';
import { extractiveAnswer, NO_DATASET_ANSWER, NOTHING_FOUND_ANSWER, wordPieces } from '../../../main/core/models/providers/extractive.js';
import type { Passage } from '../../../main/core/platform/ports/providers.js';

const passage = (index: number, text: string): Passage => ({ index, artifact_key: `f${index}.txt`, text, snippet: text.slice(0, 40), location: { start: 0, end: text.length } });
const ask = (question: string, passages: Passage[], has_datasets = true) => extractiveAnswer({ passages, has_datasets, messages: [{ role: 'user', content: question }] });

const CHINESE_FILE = '公司总部位于柏林。远程办公每周最多三天。设备补贴是一千二百欧元。停车场在地下一层。';

describe('the question’s language', () => {
  it('is told by script for Chinese, Japanese, Korean and Thai', () => {
    expect(questionLanguage('设备补贴是多少？')).toBe('zh');
    expect(questionLanguage('会議室はどこですか？')).toBe('ja');
    // Kanji only, with kana elsewhere in the question: Japanese still.
    expect(questionLanguage('総務部の電話番号')).toBe('ja');
    expect(questionLanguage('회의실은 어디에 있나요?')).toBe('ko');
    expect(questionLanguage('ที่จอดรถอยู่ที่ไหน')).toBe('th');
  });

  it('follows most of the words: an English question naming a Chinese term is English, a Chinese one naming a product Chinese', () => {
    expect(questionLanguage('What does 设备补贴 mean in this file?')).toBe('en');
    expect(questionLanguage('iPhone 的电池多少钱？')).toBe('zh');
  });

  it('is told by function words for Latin text, English when nothing tells', () => {
    expect(questionLanguage('Wie hoch ist die Parkgebühr?')).toBe('de');
    expect(questionLanguage('Was kostet das Parken?')).toBe('de');
    expect(questionLanguage('Quel est le montant de la prime ?')).toBe('fr');
    expect(questionLanguage('¿Cuánto es el subsidio?')).toBe('es');
    expect(questionLanguage('How much is the home-office allowance?')).toBe('en');
    expect(questionLanguage('allowance')).toBe('en');
    expect(questionLanguage('')).toBe('en');
  });
});

describe('the built-in model in the question’s language', () => {
  it('answers a Chinese question from a Chinese file with the sentence holding the answer, cited, introduced in Chinese', () => {
    expect(ask('设备补贴是多少？', [passage(1, CHINESE_FILE)])).toBe('摘自你的数据集：\n\n> 设备补贴是一千二百欧元。 [1]');
  });

  it('says it found nothing, and that no dataset is attached, in the question’s language', () => {
    expect(ask('设备补贴是多少？', [])).toMatch(/^在附加的数据集中没有找到/);
    expect(ask('会議室はどこですか？', [], false)).toMatch(/^私は組み込みの抽出型モデルです/);
    expect(ask('Wie hoch ist die Parkgebühr?', [])).toMatch(/^In den angehängten Datensätzen habe ich nichts gefunden/);
    expect(ask('ที่จอดรถอยู่ที่ไหน', [], false)).toMatch(/^ฉันคือโมเดล/);
  });

  it('keeps English answers as they were', () => {
    expect(ask('Where is the lamp?', [], false)).toBe(NO_DATASET_ANSWER);
    expect(ask('Where is the lamp?', [])).toBe(NOTHING_FOUND_ANSWER);
    expect(ask('When is the lamp lit?', [passage(1, 'The lamp is lit at dusk. Bread is baked.')])).toBe('From your datasets:\n\n> The lamp is lit at dusk. [1]');
  });
});

describe('word pieces of a streamed answer', () => {
  it('streams Chinese word by word and rebuilds the text exactly', () => {
    const answer = '摘自你的数据集：\n\n> 设备补贴是一千二百欧元。 [1]';
    const pieces = wordPieces(answer);
    expect(pieces.join('')).toBe(answer);
    expect(pieces).toContain('设备');
    expect(pieces).toContain('补贴');
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(6);
  });

  it('cuts English at spaces, as before', () => {
    expect(wordPieces('From your datasets:\n\n> The lamp')).toEqual(['From ', 'your ', 'datasets:\n\n', '> ', 'The ', 'lamp']);
  });
});
