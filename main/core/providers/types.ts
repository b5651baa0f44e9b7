import type { Citation } from '../../../shared/events.js';
import type { ErrorCode } from '../../../shared/errors.js';

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One call to a model: the whole conversation as the model should see it. */
export interface ProviderRequest {
  /** The provider's own model name. */
  model: string;
  endpoint_url: string | null;
  api_key: string | null;
  messages: ChatTurn[];
  dataset_ids: string[];
  signal: AbortSignal;
  max_tokens?: number;
}

export type ProviderEvent =
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: Omit<Citation, 'index'> }
  | { type: 'usage'; input_tokens: number; output_tokens: number };

/** A provider failure, with the code a caller sees and whether another model could be tried. */
export class ProviderError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'ProviderError';
  }
}

export interface Provider {
  /** Streams the answer. Throws ProviderError (before or after the first delta); stops when `signal` aborts. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}
