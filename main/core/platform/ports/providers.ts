import type { ErrorCode } from '../../../../shared/errors.js';
import type { Model } from '../../../../shared/operations/models.js';
import type { ChunkLocation } from '../../../db/repositories/chunks/chunk.js';
import { redactSecrets } from '../secrets/redact.js';

/*
 * How the core calls a model, declared here at the bottom so every wing can ask for an answer
 * (through `Runtime.providers`) while the providers themselves live in models/providers/.
 */

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** Images of a user turn (`/v1` `image_url` parts): http(s) or `data:` URLs. Only remote providers take them. */
  images?: string[] | undefined;
}

/** A dataset passage an answer may draw on, numbered as it is cited. */
export interface Passage {
  index: number;
  artifact_key: string;
  text: string;
  snippet: string;
  location: ChunkLocation;
}

/**
 * How the next tokens are picked and when the answer stops. Unset fields take the model's defaults:
 * a remote server's own; for a local GGUF its recommended values, else a temperature of 0.7.
 */
export interface Sampling {
  temperature?: number | undefined;
  top_p?: number | undefined;
  max_tokens?: number | undefined;
  /** The answer ends before the first of these the model writes. */
  stop?: string[] | undefined;
  /** The rest are `/v1` fields, forwarded where the provider has an equivalent. */
  seed?: number | undefined;
  presence_penalty?: number | undefined;
  frequency_penalty?: number | undefined;
  /** The end user, as the caller names them (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string | undefined;
  /** JSON output: any object, or one matching `schema` (a local model is held to it by a grammar). */
  response_format?: OutputFormat | undefined;
}

export type OutputFormat = { type: 'json_object' } | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean | undefined };

/** One call to a model: the whole conversation as the model should see it. */
export interface ProviderRequest extends Sampling {
  /** The provider's own model name. */
  model: string;
  endpoint_url: string | null;
  api_key: string | null;
  messages: ChatTurn[];
  /** Passages of the attached datasets; generative models also find them in `messages`. */
  passages: Passage[];
  /** Whether any dataset is attached (the extractive model says which case it is in). */
  has_datasets: boolean;
  signal: AbortSignal;
  /**
   * A remote model that has sent nothing (no response, or no first stream chunk) after this long is
   * abandoned with a ProviderError, so the next candidate answers in seconds rather than minutes.
   * Unset: the client's own timeout only (the last candidate has nobody to hand over to).
   */
  first_byte_timeout_ms?: number | undefined;
}

export type ProviderEvent =
  | { type: 'delta'; text: string }
  | { type: 'usage'; input_tokens: number; output_tokens: number }
  /** `length`: the token limit (`max_tokens`) cut the answer short; `tool_calls`: it ended asking for tools. Absent: a natural stop. */
  | { type: 'finish'; reason: 'length' | 'tool_calls' }
  /**
   * A stop string of the request (`stop`) ended the answer, where the provider says which (a local
   * model, Anthropic; OpenAI-compatible servers do not): Anthropic's `stop_sequence`.
   */
  | { type: 'finish'; reason: 'stop'; stop_sequence: string };

/** A provider failure, with the code a caller sees and whether another model could be tried. */
export class ProviderError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly status?: number,
  ) {
    // Upstream text echoes what it was sent (keys, Authorization headers, URLs with ?key=).
    super(redactSecrets(detail));
    this.name = 'ProviderError';
  }
}

/** A tool a model may call, described by a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, as the model wrote it (it may be invalid JSON). */
  arguments: string;
}

/** One entry of an agent's transcript, in a neutral shape each provider maps onto its wire format. */
export type AgentTurn =
  | ChatTurn
  | { role: 'assistant'; content: string; tool_calls: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

/** One model call of an agent: the transcript so far and the tools it knows. */
export interface AgentTurnRequest extends Omit<ProviderRequest, 'messages' | 'passages' | 'has_datasets'> {
  messages: AgentTurn[];
  tools: ToolSpec[];
  /**
   * `none`: the tools stay described (a transcript with tool calls needs them, for Anthropic) but
   * the model may not call one: it must answer. `required`: it must call one of them. `{ name }`:
   * the model must call that tool now.
   */
  tool_choice: 'auto' | 'none' | 'required' | { name: string };
  /** `false`: at most one call per turn. Unset: the provider's default. */
  parallel_tool_calls?: boolean | undefined;
}

export type AgentTurnEvent = ProviderEvent | { type: 'tool_call'; call: ToolCall };

export interface Provider {
  /** Streams the answer. Throws ProviderError (before or after the first delta); stops when `signal` aborts. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
  /**
   * One step of an agent with native tool calling: text streams as deltas; the tool calls the model
   * asks for come whole, once their arguments are complete. Absent: the provider cannot call tools.
   */
  agentTurn?(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent>;
}

export type ProviderName = Model['provider'];
/** One provider per kind of model; models/providers/index.ts builds them. */
export type Providers = Record<ProviderName, Provider>;
