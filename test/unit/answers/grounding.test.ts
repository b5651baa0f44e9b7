import { describe, expect, it } from 'vitest';
import { withPassages } from '../../../main/core/answering/grounding.js';
import { estimateTokens, messageTokens, prefixCosting, REPLY_RESERVE_TOKENS } from '../../../main/core/platform/tokens.js';
import type { Passage } from '../../../main/core/platform/ports/providers.js';

const passage = (index: number, text: string): Passage => ({ index, artifact_key: `f${index}.txt`, text, snippet: text.slice(0, 20), location: { start: 0, end: text.length } });

describe('the instruction generative models get with the passages', () => {
  it('asks for the answer in the language of the question, after the thread’s own system prompt (which may ask otherwise)', () => {
    const turns = withPassages(
      [
        { role: 'system', content: 'Always answer in French.' },
        { role: 'user', content: '设备补贴是多少？' },
      ],
      [passage(1, 'The equipment allowance is EUR 1,200.')],
    );
    expect(turns.map((t) => t.role)).toEqual(['system', 'system', 'user']);
    expect(turns[0]?.content).toBe('Always answer in French.');
    expect(turns[1]?.content).toContain("Answer in the language of the user's question unless an instruction above asks for another.");
  });

  it('fits Chinese passages into the model’s context: a Chinese character costs about a token', () => {
    const chinese = '设备补贴是一千二百欧元，员工可以在试用期结束后申请。'.repeat(2000);
    const turns = withPassages([{ role: 'user', content: '设备补贴是多少？' }], [passage(1, chinese), passage(2, chinese)], 4096);
    const total = turns.reduce((n, t) => n + messageTokens(t.content), 0);
    expect(total).toBeLessThanOrEqual(4096 - REPLY_RESERVE_TOKENS);
    expect(turns[0]?.content).toContain('[1] f1.txt');
  });
});

describe('token estimates', () => {
  it('count English at four characters a token, as before, and Chinese, Japanese and Thai at about one a character', () => {
    expect(estimateTokens('The equipment allowance is EUR 1,200.')).toBe(10);
    expect(estimateTokens('设备补贴是一千二百欧元。')).toBe(12);
    expect(estimateTokens('会議室は総務部が管理します')).toBe(13);
    expect(estimateTokens('ที่จอดรถ')).toBe(8);
    expect(estimateTokens('iPhone 的电池')).toBe(2 + 3);
  });

  it('find the start of a text costing as many tokens as so many English characters', () => {
    expect(prefixCosting('abcdefgh', 5)).toBe(5);
    expect(prefixCosting('abcdefgh', 50)).toBe(8);
    expect(prefixCosting('设备补贴是一千二百欧元', 8)).toBe(2);
  });
});
