import type { ChatHistoryItem } from 'node-llama-cpp';
import type { Config } from '../../../../../shared/config.js';
import type { AgentTurnEvent, Sampling } from '../../../platform/ports/providers.js';
import { ProviderError } from '../../../platform/ports/providers.js';
import type { ToolUse } from './llama-cpp-history.js';
import { LocalModelError, type LocalState, type Resident } from '../engine.js';
import type { GgufHeader } from '../gguf-header.js';
import type { LocalEnginePort } from '../../../platform/ports/local-models.js';
import type { ErrorCode } from '../../../../../shared/errors.js';

/** One answer for a local model, as plain data (it crosses into the model's process as it is). */
export interface GenerateRequest extends Sampling {
  path: string;
  header: GgufHeader;
  history: ChatHistoryItem[];
  tools: ToolUse;
  /** An agent's turn: its transcript is fitted into the context, and again when the answer outgrows it. */
  agent: boolean;
}

/**
 * What the rest of the core uses of the local models' runtime: the engine in this process
 * (in-process.ts) or in a child process of its own (client.ts). State, residents and free memory
 * answer synchronously, so routing and listings never wait on the model's process.
 */
export interface ModelHost extends LocalEnginePort {
  /** Starts llama.cpp (and its process) ahead of the first answer; rejects with why it cannot run. */
  probe(): Promise<void>;
  unavailableReason(): string | null;
  /** Deltas, tool calls, finish and usage of one answer; ends quietly when `signal` aborts, throws a ProviderError otherwise. */
  generate(request: GenerateRequest, signal: AbortSignal): AsyncIterable<AgentTurnEvent>;
  close(): Promise<void>;
}

/** The engine's state as the model's process reports it, mirrored in the main process. */
export interface EngineSnapshot {
  unavailable: string | null;
  states: Record<string, { state: LocalState; error: string | null }>;
  residents: Resident[];
}

/** An error as it crosses the process boundary (an Error instance does not keep its class). */
export type WireError = { kind: 'local'; local: LocalModelError['kind']; message: string } | { kind: 'provider'; code: ErrorCode; message: string } | { kind: 'other'; message: string };

export type CallMethod = 'probe' | 'load' | 'unload' | 'embed' | 'close';

/** Main process → model process. `config` travels with each request: a configuration edit applies to the next one. */
export type ToHost =
  | { type: 'call'; id: number; config: Config; method: 'probe' | 'close' }
  | { type: 'call'; id: number; config: Config; method: 'load'; path: string; header: GgufHeader }
  | { type: 'call'; id: number; config: Config; method: 'unload'; path: string }
  | { type: 'call'; id: number; config: Config; method: 'embed'; path: string; header: GgufHeader; texts: string[] }
  | { type: 'generate'; id: number; config: Config; request: GenerateRequest }
  /** Stops an answer at its next token (or while it waits for the model). */
  | { type: 'cancel'; id: number };

/** Model process → main process. */
export type FromHost =
  | { type: 'ready' }
  /** A line for the app's log (the engine's warnings: a model that failed to load, a chat template not usable). */
  | { type: 'log'; level: 'info' | 'warn'; message: string }
  | { type: 'state'; snapshot: EngineSnapshot }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'event'; id: number; event: AgentTurnEvent }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; error: WireError };

export function toWire(error: unknown): WireError {
  if (error instanceof LocalModelError) return { kind: 'local', local: error.kind, message: error.message };
  if (error instanceof ProviderError) return { kind: 'provider', code: error.code, message: error.message };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

export function fromWire(error: WireError): Error {
  if (error.kind === 'local') return new LocalModelError(error.local, error.message);
  if (error.kind === 'provider') return new ProviderError(error.code, error.message);
  return new Error(error.message);
}
