import type { Config } from '../../../../shared/config.js';
import type { Capabilities } from '../../../../shared/operations/models-schema.js';

/** What the router knows about one request; extracted from the message and its context. */
export interface RequestFeatures {
  /** Estimated prompt tokens: the new message plus the thread context sent with it. */
  prompt_tokens: number;
  has_code: boolean;
  has_math: boolean;
  /** Datasets attached to the message or thread. */
  dataset_count: number;
  agentic: boolean;
}

/** A model that could answer, with what it declares. */
export interface CandidateModel {
  id: string;
  name: string;
  provider: 'extractive' | 'openai_compatible' | 'anthropic' | 'llama_cpp';
  capabilities: Capabilities;
  /** For a local GGUF model: whether it is loaded, and whether it fits the memory free now. */
  local_fit?: LocalFit | undefined;
}

/** A local model's standing in memory when the request is routed. */
export interface LocalFit {
  loaded: boolean;
  /** Loaded, or its estimate (weights + KV cache + overhead) fits the free memory plus what loading it would free. */
  fits_memory: boolean;
  /** The estimate, bytes. */
  memory_bytes: number;
  /** The weights file's size: among local models of equal standing, the larger is taken as the better. */
  weights_bytes: number;
}

export type { ModelHealth } from '../../platform/ports/model-health.js';

export interface RoutingDecision {
  /** Candidates in the order to try them: the first answers; the next ones are fail-overs. */
  ranked: string[];
  /** The model chosen (ranked[0]). */
  model_id: string;
  /** One human-readable sentence: why this model, e.g. "code in the request; Coder 7B is the best code model that is healthy". */
  reason: string;
}

export type RoutingPolicy = Config['routing'];
