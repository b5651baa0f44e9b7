import { describe, expect, it } from 'vitest';
import { nativeAgent, type NativeRun } from '../../../main/core/answering/agent/native.js';
import { PassageBook, type ToolResult } from '../../../main/core/answering/agent/tools.js';
import type { AgentEvent, Toolbox } from '../../../main/core/answering/agent/types.js';
import type { AgentTurnEvent, AgentTurnRequest } from '../../../main/core/platform/ports/providers.js';

const tools: Toolbox = {
  datasetOf: () => 'ds_1',
  run: async (name): Promise<ToolResult> => ({ text: `${name} result`, observations: [{ dataset_id: 'ds_1', content: `${name} saw` }], dataset_id: 'ds_1', citations: [] }),
};

const DATASETS = [{ id: 'ds_1', name: 'Village', description: null, kb_id: 'kb_1', artifact_count: 1 }];

/** A model that calls search_datasets whenever it may, taking `ms` of the fake clock per call; otherwise it answers `done`. */
function eagerModel(clock: { now: number }, ms: number) {
  const requests: AgentTurnRequest[] = [];
  async function* turn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
    requests.push({ ...request, messages: [...request.messages] });
    clock.now += ms;
    if (request.tool_choice !== 'none') yield { type: 'tool_call', call: { id: `call_${requests.length}`, name: 'search_datasets', arguments: '{"query":"lamp"}' } };
    else yield { type: 'delta', text: 'done' };
    yield { type: 'usage', input_tokens: 3, output_tokens: 1 };
  }
  return { turn, requests };
}

function runWith(turn: NativeRun['turn'], clock: { now: number }, maxSteps: number, deadline: number): NativeRun {
  return {
    turn,
    request: { model: 'm', endpoint_url: 'http://x', api_key: null, signal: new AbortController().signal },
    turns: [{ role: 'user', content: 'When is the lamp lit?' }],
    datasets: DATASETS,
    tools,
    book: new PassageBook(),
    limits: { maxSteps, deadline, now: () => clock.now },
    plan: 'Search with tools.',
  };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const kinds = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'thought' ? [e.kind] : []));

describe('nativeAgent', () => {
  it('runs the tools the model calls and gives it their results, until it answers', async () => {
    const clock = { now: 0 };
    const model = eagerModel(clock, 1);
    const events = await collect(nativeAgent(runWith(model.turn, clock, 2, Number.POSITIVE_INFINITY)));
    expect(kinds(events)).toEqual(['plan', 'tool_call', 'observation', 'tool_call', 'observation', 'answer']);
    // With a dataset attached the first call must be a search; then the model chooses.
    expect(model.requests.map((r) => r.tool_choice)).toEqual([{ name: 'search_datasets' }, 'auto', 'none']);
    const last = model.requests.at(-1)?.messages ?? [];
    expect(last.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['search_datasets result', 'search_datasets result']);
    expect(last.at(-1)).toEqual({ role: 'user', content: expect.stringMatching(/^The tool budget is spent/) });
    expect(events.filter((e) => e.type === 'delta')).toEqual([{ type: 'delta', text: 'done' }]);
    expect(events.at(-1)).toEqual({ type: 'usage', input_tokens: 9, output_tokens: 3 });
  });

  it('stops calling tools at the time budget: a call made after it is answered without running', async () => {
    const clock = { now: 0 };
    const model = eagerModel(clock, 10);
    const events = await collect(nativeAgent(runWith(model.turn, clock, 6, 25)));
    // Turns start at 0, 10, 20 (tools allowed) and 30 (not): the third call came back at 30, past the deadline.
    expect(kinds(events).filter((k) => k === 'tool_call')).toHaveLength(2);
    expect(model.requests.map((r) => r.tool_choice)).toEqual([{ name: 'search_datasets' }, 'auto', 'auto', 'none']);
    expect(model.requests.at(-1)?.messages.filter((m) => m.role === 'tool').at(-1)).toMatchObject({ content: 'Not run: the tool budget is spent.' });
    expect(events.find((e) => e.type === 'thought' && e.kind === 'answer')).toMatchObject({ content: 'Answered after 2 tool calls, citing no passage.' });
  });

  it('tells no plan when the model fails before its first output', async () => {
    // eslint-disable-next-line require-yield -- it fails before producing anything, by design
    async function* failing(): AsyncIterable<AgentTurnEvent> {
      throw new Error('503');
    }
    const seen: AgentEvent[] = [];
    await expect(
      (async () => {
        for await (const event of nativeAgent(runWith(failing, { now: 0 }, 6, Number.POSITIVE_INFINITY))) seen.push(event);
      })(),
    ).rejects.toThrow('503');
    expect(seen).toEqual([]);
  });
});
