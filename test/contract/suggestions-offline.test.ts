import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTHING_FOUND_ANSWER } from '../../main/core/models/providers/extractive.js';
import { startChatHarness, type Harness } from '../support/chat.js';

type Prompts = { data: Array<{ id: string; title: string; prompt: string; dataset_id: string | null }> };

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const prompts = async () => (await h.json<Prompts>('/suggestions/prompts', 'GET')).body.data;

describe('suggested prompts follow the models that can answer them', () => {
  it('a fresh install (only the built-in extractive model) suggests nothing it would have to refuse', async () => {
    expect(await prompts()).toEqual([]);
  });

  it('with a dataset, the extractive model gets a question about what the dataset holds, and answers it from the dataset', async () => {
    const handbook = await h.dataset('Handbook', {
      'handbook.md': '# Employee handbook\n\n## Working from home\n\nEmployees may work from home up to three days a week. Every employee working from home receives a one-time home-office allowance of EUR 1,200.\n',
    });
    const list = await prompts();
    expect(list).toEqual([{ id: `dataset-${handbook.id}`, title: 'Ask Handbook', prompt: 'What does Handbook say about working from home?', dataset_id: handbook.id }]);
    const answer = await h.json<{ message: { content: string; citations: unknown[] } }>('/chat', 'POST', { message: list[0]?.prompt, dataset_ids: [handbook.id] });
    expect(answer.status).toBe(200);
    expect(answer.body.message.content).not.toBe(NOTHING_FOUND_ANSWER);
    expect(answer.body.message.content).toContain('Employees may work from home up to three days a week.');
    expect(answer.body.message.citations.length).toBeGreaterThan(0);
  });

  it('once a generative model exists, the general prompts and dataset summaries come back', async () => {
    await h.addModel('Writer', 'echo');
    const list = await prompts();
    expect(list.map((p) => p.title)).toEqual(['Summarize Handbook', 'Explain a concept', 'Write some code', 'Make a plan']);
  });
});
