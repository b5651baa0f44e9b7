import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

type Msg = { content: string; status: string; model_id: string; citations: Array<{ index: number; artifact_key: string }>; thoughts?: Array<{ kind: string; content: string }> };

/**
 * A handbook whose allowance sentence holds its amount after the words a question would use, with
 * other sentences about equipment and allowances around it: a fixed word window around the matched
 * terms stops before "EUR 1,200"; the whole sentence does not.
 */
const HANDBOOK = `# Employee handbook

## Working from home

Employees may work from home up to three days a week after agreeing the days with their team lead. Team leads review home-office arrangements once a year.
To set up a proper workplace at home, every employee who works from home at least two days a week receives, once they have completed their probation period, a one-time home-office allowance of EUR 1,200 for a desk, a chair, a monitor and similar equipment.
Receipts for the allowance are submitted through the expenses portal within three months of the purchase.

## Equipment

Laptops, headsets and phones are company equipment and remain the property of the company. Lost or damaged equipment must be reported to IT within two working days.

## Travel

Travel is booked through the travel desk. The daily meal allowance on business trips is EUR 28 within the country.
`;

let h: Harness;
let handbook: { id: string };

beforeAll(async () => {
  h = await startChatHarness();
  handbook = await h.dataset('Handbook', { 'handbook.md': HANDBOOK });
});
afterAll(() => h.close());

const ask = (body: Record<string, unknown>) => h.json<{ message: Msg }>('/chat', 'POST', { model_endpoint_override: 'mdl_extractive', dataset_ids: [handbook.id], ...body });
const QUESTION = 'How much is the home-office equipment allowance?';

describe('the built-in extractive model answers with the fact', () => {
  it('quotes the whole sentence holding the most of the question’s terms first, amount included', async () => {
    const res = await ask({ message: QUESTION });
    expect(res.status).toBe(200);
    const { content, citations } = res.body.message;
    const quotes = content.split('\n\n').filter((l) => l.startsWith('> '));
    expect(quotes[0]).toContain('a one-time home-office allowance of EUR 1,200 for a desk, a chair, a monitor and similar equipment.');
    // A whole sentence: from its first word, not cut after the matched words.
    expect(quotes[0]).toMatch(/^> To set up a proper workplace at home, .* \[1\]$/);
    expect(citations[0]).toMatchObject({ index: 1, artifact_key: 'handbook.md' });
    expect(quotes.length).toBeLessThanOrEqual(3);
  });

  it('does the same in agentic mode, quoting what its read step returned', async () => {
    const res = await ask({ message: QUESTION, agentic: true });
    expect(res.status).toBe(200);
    const message = res.body.message;
    const read = message.thoughts?.find((t) => t.kind === 'observation' && t.content.startsWith('[1]'));
    expect(read?.content).toContain('EUR 1,200');
    expect(message.content).toMatch(/^From your datasets:\n\n> [^\n]*a one-time home-office allowance of EUR 1,200[^\n]* \[1\]/);
    expect(message.thoughts?.at(-1)?.content).toMatch(/^Answer by quoting the sentences that hold the most of the question's terms, from passages? \[1\]/);
  });

  it('answers another question about the same file with its own fact, not the first one', async () => {
    const res = await ask({ message: 'What is the daily meal allowance on business trips?' });
    expect(res.body.message.content.split('\n\n')[1]).toContain('The daily meal allowance on business trips is EUR 28 within the country.');
  });
});

describe('the built-in extractive model in Chinese', () => {
  // A sentence each in Chinese, Japanese, Thai, German and Russian, as in issue 34.
  const POLICY = [
    '远程办公每周最多三天。设备补贴是一千二百欧元。停车场在地下一层。',
    '会議室は総務部が管理します。',
    'ที่จอดรถอยู่ชั้นล่าง',
    'Die Parkgebühren betragen fünf Euro am Tag.',
    'Столовая открыта с восьми до шестнадцати часов.',
  ].join('\n\n');

  it('answers a Chinese question from a Chinese file with the sentence holding the answer, cited, in Chinese', async () => {
    const policy = await h.dataset('Policy', { 'policy.txt': POLICY });
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { model_endpoint_override: 'mdl_extractive', dataset_ids: [policy.id], message: '设备补贴是多少？' });
    expect(res.status).toBe(200);
    const { content, citations } = res.body.message;
    expect(content).toMatch(/^摘自你的数据集：\n\n> 设备补贴是一千二百欧元。 \[1\]/);
    expect(citations[0]).toMatchObject({ index: 1, artifact_key: 'policy.txt' });
  });
});

