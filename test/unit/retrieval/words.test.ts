import { describe, expect, it } from 'vitest';
import { indexedText, wordList, wordsAlong, wordsOf } from '../../../shared/words.js';

const MIXED = [
  '设备补贴是一千二百欧元。远程办公每周两天！',
  '会議室は総務部が管理します。\n\n  iPhone15は高い',
  'ที่จอดรถอยู่ชั้นล่าง',
  'Parkgebühren: 12 € pro Tag, компенсация 中文 and English.',
];

describe('words in every script (shared/words.ts)', () => {
  it('splits runs of spaceless scripts into ICU words and leaves other runs whole', () => {
    expect(wordList('设备补贴是一千二百欧元。')).toEqual(['设备', '补贴', '是', '一千', '二百', '欧元']);
    expect(wordList('Wie hoch sind die Parkgebühren?')).toEqual(['wie', 'hoch', 'sind', 'die', 'parkgebühren']);
    expect(indexedText('Plain English only.')).toBeNull();
    expect(indexedText('会議室は総務部')).toBe('会議 室 は 総務 部');
  });

  it('reads the same words, at the same offsets, from the stored indexed text as ICU finds in the text', () => {
    for (const text of MIXED) {
      const along = [...wordsAlong(text, indexedText(text))];
      expect(along).toEqual([...wordsOf(text)]);
      for (const word of along) expect(text.slice(word.index, word.index + word.text.length)).toBe(word.text);
    }
  });
});
