import type { AgentEvent, Toolbox } from './types.js';
import type { ToolResult } from './tools.js';

/** How a tool call reads in the thoughts: `search_datasets {"query":"…"}`. */
export function describeCall(name: string, args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text === '{}' ? name : `${name} ${text}`;
}

/**
 * One tool step as it happens: the call is told, run, and what it observed is told, with the new
 * passages as citations. Returns the tool's result for the caller (the model, or the planner).
 */
export async function* toolStep(tools: Toolbox, name: string, args: Record<string, unknown>): AsyncGenerator<AgentEvent, ToolResult> {
  yield { type: 'thought', kind: 'tool_call', content: describeCall(name, args), dataset_id: tools.datasetOf(name, args) };
  const result = await tools.run(name, args);
  for (const observation of result.observations) yield { type: 'thought', kind: 'observation', content: observation.content, dataset_id: observation.dataset_id };
  for (const citation of result.citations) yield { type: 'citation', citation };
  return result;
}
