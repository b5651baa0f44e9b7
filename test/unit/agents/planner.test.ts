import { describe, expect, it } from 'vitest';
import { PASSAGES_READ, planQuestion, plannedSteps } from '../../../main/core/answering/agent/planner.js';
import type { ToolResult } from '../../../main/core/answering/agent/tools.js';
import type { AgentEvent, AgentLimits, Toolbox } from '../../../main/core/answering/agent/types.js';

/** Tools that answer from a script and record what was asked of them. */
function fakeTools(found: number[]): Toolbox & { calls: Array<{ name: string; args: Record<string, unknown> }> } {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  return {
    calls,
    datasetOf: () => 'ds_1',
    run: async (name, args): Promise<ToolResult> => {
      calls.push({ name, args });
      if (name === 'search_datasets') return { text: 'hits', observations: [{ dataset_id: 'ds_1', content: `${found.length} found` }], dataset_id: 'ds_1', citations: [], passages: found };
      return { text: `passage ${String(args.passage)}`, observations: [{ dataset_id: 'ds_1', content: `read ${String(args.passage)}` }], dataset_id: 'ds_1', citations: [] };
    },
  };
}

const roomy = (): AgentLimits => ({ maxSteps: 6, deadline: Number.POSITIVE_INFINITY, now: () => 0 });

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const thoughts = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'thought' ? [`${e.kind}: ${e.content}`] : []));

describe('planQuestion', () => {
  it('plans from the question’s content words, stop words out, and names where it will search', () => {
    const plan = planQuestion('When is the lighthouse lamp lit, and by whom?', ['Village'], 6);
    expect(plan.terms).toEqual(['lighthouse', 'lamp', 'lit']);
    expect(plan.query).toBe('lighthouse lamp lit');
    expect(plan.text).toBe('Search the dataset "Village" for the terms "lighthouse", "lamp", "lit", read the 2 best passages with their context, then answer by quoting the most relevant passages with citations.');
  });

  it('searches the question as written when it has only stop words, and reads less when the step budget is small', () => {
    const plan = planQuestion('what is it?', ['A', 'B'], 2);
    expect(plan.query).toBe('what is it?');
    expect(plan.text).toBe('Search the 2 attached datasets for the question as written, read the best passage with its context, then answer by quoting the most relevant passages with citations.');
    expect(planQuestion('lamp', ['A'], 1).text).not.toMatch(/read/);
  });

  it('without a dataset, plans to check and say so', () => {
    expect(planQuestion('lamp', [], 6).text).toMatch(/^No dataset is attached/);
  });
});

describe('plannedSteps', () => {
  it('tells each step as it happens: plan, the search it ran, what it found, then reads the best passages', async () => {
    const tools = fakeTools([3, 1, 2]);
    const events = await collect(plannedSteps('lighthouse lamp', [{ id: 'ds_1', name: 'Village' }], tools, roomy(), new AbortController().signal));
    expect(tools.calls).toEqual([
      { name: 'search_datasets', args: { query: 'lighthouse lamp' } },
      { name: 'read_passage', args: { passage: 3 } },
      { name: 'read_passage', args: { passage: 1 } },
    ]);
    expect(PASSAGES_READ).toBe(2);
    expect(thoughts(events)).toEqual([
      expect.stringMatching(/^plan: Search the dataset "Village"/),
      'tool_call: search_datasets {"query":"lighthouse lamp"}',
      'observation: 3 found',
      'tool_call: read_passage {"passage":3}',
      'observation: read 3',
      'tool_call: read_passage {"passage":1}',
      'observation: read 1',
    ]);
    // With one dataset, every step concerns it, the plan included.
    expect(events.every((e) => e.type !== 'thought' || e.dataset_id === 'ds_1')).toBe(true);
  });

  it('reads nothing when the search found nothing', async () => {
    const tools = fakeTools([]);
    await collect(plannedSteps('lamp', [{ id: 'ds_1', name: 'Village' }], tools, roomy(), new AbortController().signal));
    expect(tools.calls.map((c) => c.name)).toEqual(['search_datasets']);
  });

  it('stops at the step budget and at the time budget', async () => {
    const bySteps = fakeTools([1, 2]);
    await collect(plannedSteps('lamp', [{ id: 'ds_1', name: 'V' }], bySteps, { maxSteps: 2, deadline: Number.POSITIVE_INFINITY, now: () => 0 }, new AbortController().signal));
    expect(bySteps.calls.map((c) => c.name)).toEqual(['search_datasets', 'read_passage']);

    let clock = 0;
    const byTime = fakeTools([1, 2]);
    const slowTools: Toolbox = { ...byTime, run: async (name, args) => ((clock += 10), byTime.run(name, args)) };
    await collect(plannedSteps('lamp', [{ id: 'ds_1', name: 'V' }], slowTools, { maxSteps: 6, deadline: 5, now: () => clock }, new AbortController().signal));
    expect(byTime.calls.map((c) => c.name)).toEqual(['search_datasets']);
  });

  it('stops when the answer is cancelled', async () => {
    const tools = fakeTools([1, 2]);
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of plannedSteps('lamp', [{ id: 'ds_1', name: 'V' }], tools, roomy(), controller.signal)) {
      events.push(event);
      if (event.type === 'thought' && event.kind === 'observation') controller.abort();
    }
    expect(tools.calls.map((c) => c.name)).toEqual(['search_datasets']);
  });

  it('without a dataset, lists what is attached and stops', async () => {
    const tools = fakeTools([]);
    const events = await collect(plannedSteps('lamp', [], tools, roomy(), new AbortController().signal));
    expect(tools.calls.map((c) => c.name)).toEqual(['list_datasets']);
    expect(thoughts(events)[1]).toBe('tool_call: list_datasets');
  });
});
