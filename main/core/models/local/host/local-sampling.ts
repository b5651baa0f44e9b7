import type { ModelSampling } from '../gguf-header.js';
import type { Sampling } from '../../../platform/ports/providers.js';

/**
 * Without a temperature node-llama-cpp decodes greedily: every answer to a question the same, and
 * small models loop. 0.7 is the common middle ground of chat front-ends for models that recommend nothing.
 */
export const DEFAULT_TEMPERATURE = 0.7;

/** node-llama-cpp's sampling options for one answer. */
export interface LocalSampling {
  temperature: number;
  topP?: number;
  topK?: number;
  minP?: number;
  customStopTriggers?: string[];
  seed?: number;
  repeatPenalty?: { frequencyPenalty?: number; presencePenalty?: number };
}

/**
 * Each setting from the request if it sets it, else from what the GGUF recommends, else the
 * default (a temperature of 0.7; llama.cpp's own for the rest). top-k and min-p are never in a
 * request, so the model's recommendation holds for them.
 */
export function localSampling(request: Sampling, model: ModelSampling | undefined): LocalSampling {
  const out: LocalSampling = { temperature: request.temperature ?? model?.temperature ?? DEFAULT_TEMPERATURE };
  const topP = request.top_p ?? model?.top_p;
  if (topP !== undefined) out.topP = topP;
  if (model?.top_k !== undefined) out.topK = model.top_k;
  if (model?.min_p !== undefined) out.minP = model.min_p;
  if (request.stop?.length) out.customStopTriggers = request.stop;
  if (request.seed !== undefined) out.seed = request.seed;
  // llama.cpp's penalties only lower a token's chance: OpenAI's negative values (encouraging repeats) have no equivalent.
  const frequency = Math.max(0, request.frequency_penalty ?? 0);
  const presence = Math.max(0, request.presence_penalty ?? 0);
  if (frequency > 0 || presence > 0) out.repeatPenalty = { ...(frequency > 0 ? { frequencyPenalty: frequency } : {}), ...(presence > 0 ? { presencePenalty: presence } : {}) };
  return out;
}
