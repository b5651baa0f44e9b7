import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_LIMIT, TOOL_SPECS } from '../../../main/core/answering/agent/tool-args.js';
import { PassageBook, runTool, type ToolEnv } from '../../../main/core/answering/agent/tools.js';
import { bootTestCore } from '../../support/core.js';

const core = bootTestCore();
afterAll(() => core.remove());
const env: ToolEnv = { repos: core.repos, embed: undefined, datasets: [] };

describe('the dataset tools, as the model is told of them', () => {
  it('describe each tool’s arguments as a JSON Schema made from its zod schema', () => {
    expect(TOOL_SPECS.map((t) => t.name)).toEqual(['search_datasets', 'read_passage', 'open_artifact', 'list_datasets', 'list_files']);
    const search = TOOL_SPECS.find((t) => t.name === 'search_datasets');
    expect(search?.parameters).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', minLength: 1, description: 'What to look for.' },
        dataset_id: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT },
      },
    });
    expect(TOOL_SPECS.find((t) => t.name === 'read_passage')?.parameters).toMatchObject({ required: ['passage'], properties: { passage: { type: 'integer', minimum: 1 } } });
    expect(TOOL_SPECS.find((t) => t.name === 'list_datasets')?.parameters).toMatchObject({ type: 'object', properties: {} });
    // No dialect line: providers take the schema as it is.
    for (const spec of TOOL_SPECS) expect(spec.parameters).not.toHaveProperty('$schema');
  });
});

describe('a call with bad arguments', () => {
  it('is answered with what is wrong, by argument, so the model can call again', async () => {
    const book = new PassageBook();
    const noQuery = await runTool(env, book, 'search_datasets', { limit: 3 });
    expect(noQuery.text).toMatch(/^search_datasets was called with bad arguments \("query": .+\)/);
    expect(noQuery.citations).toEqual([]);
    expect((await runTool(env, book, 'search_datasets', { query: '   ' })).text).toMatch(/"query": Too small/);
    expect((await runTool(env, book, 'search_datasets', { query: 'lamp', limit: MAX_SEARCH_LIMIT + 1 })).text).toMatch(/"limit": Too big/);
    expect((await runTool(env, book, 'read_passage', { passage: 'one' })).text).toMatch(/"passage": Invalid input: expected number/);
    expect((await runTool(env, book, 'open_artifact', {})).text).toMatch(/"key"/);
  });

  it('with good arguments reaches the tool (no dataset attached here: it says so)', async () => {
    expect((await runTool(env, new PassageBook(), 'search_datasets', { query: 'lamp' })).text).toBe('No dataset is attached to this conversation: there is nothing to search.');
    expect((await runTool(env, new PassageBook(), 'read_passage', { passage: 2 })).text).toMatch(/^There is no passage 2:/);
    expect((await runTool(env, new PassageBook(), 'nope', {})).text).toMatch(/^There is no tool "nope"/);
  });
});
