import type { Citation } from '../../../../shared/events.js';
import type { ThoughtKind } from '../../../db/repositories/thoughts.js';
import type { AttemptEvent } from '../failover.js';
import type { ToolSpec } from '../../platform/ports/providers.js';
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

/**
 * Tools from outside Parley (an MCP server's) that one answer may call beside its own: the
 * conversation wing supplies them, so answering needs to know nothing of MCP.
 */
export interface ExternalTools {
  readonly specs: ToolSpec[];
  owns(name: string): boolean;
  run(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
  /** The dataset every external step belongs to (deleted with it). */
  datasetOf(): string | null;
}

/**
 * Opens one answer's external tools, when the first tool-calling model is about to answer (`null`
 * when there are none to offer); `datasetId` is the sole attached dataset, if there is one.
 */
export type OpenExternalTools = (datasetId: string | null) => Promise<ExternalTools | null>;

/** How far one answer may go: tool calls, and a time after which the agent must answer. */
export interface AgentLimits {
  maxSteps: number;
  /** `now()` at which no more tool calls are made. */
  deadline: number;
  now: () => number;
}

export const withinLimits = (limits: AgentLimits, steps: number) => steps < limits.maxSteps && limits.now() < limits.deadline;
