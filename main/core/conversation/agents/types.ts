import type { Citation } from '../../../../shared/events.js';
import type { ThoughtKind } from '../../../db/repositories/thoughts.js';
import type { AttemptEvent } from '../../answering/failover.js';
import type { ToolResult } from './tools.js';

/** What an agent produces: its steps, the passages it found, and the answer's text as it streams. */
export type AgentEvent =
  | { type: 'thought'; kind: ThoughtKind; content: string; dataset_id: string | null }
  | { type: 'citation'; citation: Citation }
  | AttemptEvent;

/** The agent's tools, as the loops call them (a fake in unit tests, the datasets in the service). */
export interface Toolbox {
  run(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** The dataset a call concerns before it runs, for its `tool_call` step. */
  datasetOf(name: string, args: Record<string, unknown>): string | null;
}

/** How far one answer may go: tool calls, and a time after which the agent must answer. */
export interface AgentLimits {
  maxSteps: number;
  /** `now()` at which no more tool calls are made. */
  deadline: number;
  now: () => number;
}

export const withinLimits = (limits: AgentLimits, steps: number) => steps < limits.maxSteps && limits.now() < limits.deadline;
