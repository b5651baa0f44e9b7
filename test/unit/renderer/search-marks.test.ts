import { describe, expect, it } from 'vitest';
import { markedRuns, markWords } from '../../../renderer/src/pages/datasets/search-marks.js';
import { wordCount } from '../../../renderer/src/pages/compare/word-count.js';

/** The marked parts of a passage, as the reader sees them. */
const marks = (text: string, query: string) =>
  markedRuns(text, markWords(query))
    .filter((run) => run.marked)
    .map((run) => run.text);

describe('marking a question’s words in a search result', () => {
  it('marks a two-character Chinese word inside a sentence with no spaces', () => {
    expect(marks('公司允许每周两天远程办公。设备补贴是一千二百欧元。', '远程办公')).toEqual(['远程办公']);
    expect(marks('设备补贴是一千二百欧元。', '补贴')).toEqual(['补贴']);
    // 是 is a one-character word of the question, marked where it touches 补贴.
    expect(marks('设备补贴是一千二百欧元。', '设备补贴是多少')).toEqual(['设备补贴是']);
  });

  it('marks a Japanese word whole, though ICU splits it into a word and a one-character word', () => {
    expect(marks('会議室は総務部が管理します。', '会議室')).toEqual(['会議室']);
    expect(marks('会議室は総務部が管理します。', '総務部')).toEqual(['総務部']);
  });

  it('does not mark a one-character particle of the question everywhere it occurs', () => {
    // は and が are words of the question, but alone they would mark half the sentence.
    expect(marks('会議室は総務部が管理します。予約は不要です。', '総務部が管理')).toEqual(['総務部が管理']);
  });

  it('still marks a question of a single character', () => {
    expect(marks('这只猫很可爱', '猫')).toEqual(['猫']);
  });

  it('marks English words of three letters or more, whatever their case, as before', () => {
    expect(marks('Every employee receives a home-office Allowance of EUR 1,200.', 'home office allowance is')).toEqual(['home', 'office', 'Allowance']);
  });

  it('keeps the whole text, in order, around the marks', () => {
    const text = '会議室は総務部が管理します。';
    expect(
      markedRuns(text, markWords('総務部'))
        .map((run) => run.text)
        .join(''),
    ).toBe(text);
    expect(markedRuns(text, markWords(''))).toEqual([{ text, marked: false }]);
  });
});

describe('counting an answer’s words', () => {
  it('counts the words of a Chinese or Japanese answer, not one word per sentence', () => {
    expect(wordCount('设备补贴是一千二百欧元。')).toBe(6);
    expect(wordCount('会議室は総務部が管理します')).toBe(9);
  });

  it('counts English as before, not counting punctuation standing alone', () => {
    expect(wordCount('The allowance is EUR 1200 — once.')).toBe(6);
  });
});
