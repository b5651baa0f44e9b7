import { REPLY_RESERVE_TOKENS } from '../../platform/tokens.js';
import { ServiceError } from '../../../../shared/errors.js';
import type { Strength } from '../../../../shared/operations/models-schema.js';
import type { CandidateModel, ModelHealth, RequestFeatures, RoutingDecision, RoutingPolicy } from './types.js';

/** From this many prompt tokens on, a request counts as long and favours `long_context` models. */
export const LONG_PROMPT_TOKENS = 8_000;

/**
 * The weights, all on a scale where a quality-10 free model with no history scores about 1.
 * `prefer` moves weight between quality (quality / 10) and cost (COST_REF / (COST_REF + price)).
 */
const PREFER_WEIGHTS: Record<RoutingPolicy['prefer'], { quality: number; cost: number }> = {
  quality: { quality: 1, cost: 0.05 },
  balanced: { quality: 0.6, cost: 0.4 },
  cost: { quality: 0.15, cost: 1 },
};
/** USD per million tokens at which the cost score is one half (free scores 1, $15 about 0.12). */
const COST_REF_PER_MTOK = 2;
/** Per declared strength that matches a feature of the request. */
const STRENGTH_BONUS = 0.1;
/** For an agentic request, to a model whose provider calls tools natively (the agent then drives its own tools). */
const TOOL_CALLING_BONUS = STRENGTH_BONUS;
const TOOL_CALLING_PROVIDERS: ReadonlySet<CandidateModel['provider']> = new Set(['openai_compatible', 'anthropic', 'llama_cpp']);
/** For a specialist (no `general` strength) when none of its strengths is what the request needs. */
const OFF_TOPIC_PENALTY = 0.1;
/** Times the error-rate EWMA (0–1). */
const ERROR_PENALTY = 0.5;
/** Latency is normalised as l / (l + LATENCY_REF_MS): 0 for instant, 0.5 at 2 s, towards 1 beyond. */
const LATENCY_REF_MS = 2_000;
/** A tie-breaker: with datasets attached, a local model keeps the data on this machine. */
const LOCAL_WITH_DATASETS_BONUS = 0.01;
/**
 * A local model already loaded answers without a load (seconds) and without unloading another:
 * more than any size difference, less than one quality point.
 */
const LOADED_BONUS = 0.04;
/** Among local models, the larger weights as the better answers: up to this much (half of it at 4 GiB). */
const LOCAL_SIZE_BONUS = 0.01;
const LOCAL_SIZE_REF_BYTES = 4 * 1024 ** 3;

type Need = 'code' | 'math' | 'datasets' | 'agentic' | 'long';
const STRENGTH_FOR: Record<Need, Strength> = {
  code: 'code',
  math: 'math',
  datasets: 'retrieval',
  agentic: 'agentic',
  long: 'long_context',
};
const KIND_WORD: Record<Need, string> = {
  code: 'code',
  math: 'maths',
  datasets: 'retrieval',
  agentic: 'agentic',
  long: 'long-context',
};

interface Scored {
  model: CandidateModel;
  health: ModelHealth;
  /** Request features this model declares a strength for. */
  matched: Need[];
  /** False for the extractive model when there is no dataset: it can only quote datasets. */
  able: boolean;
  down: boolean;
  fits: boolean;
  /** False for a local model whose estimate exceeds the free memory: loading it would likely fail. */
  memoryOk: boolean;
  /** Blended USD per million tokens for this request's input/output mix. */
  price: number;
  score: number;
  /** The score before the health penalties: what the model would score if it were well. */
  scoreIfWell: number;
}

/**
 * Orders the candidates for one request: the first answers, the next ones are fail-overs.
 * Pure: the same inputs always give the same decision (ties go to the smaller model id).
 *
 * Ranking, most significant first:
 * 1. models whose context cannot hold the prompt plus REPLY_RESERVE_TOKENS are dropped — unless
 *    none can, then all are kept, largest context first;
 * 2. models with an open circuit go last (never dropped: if all are down, one is still tried);
 * 3. the extractive model goes after generative ones when no dataset is attached;
 * 4. a local model whose memory estimate does not fit the free memory goes after those that fit;
 * 5. the score (see the weights above; among local models a loaded one, then a larger one, scores
 *    a little more), then the model id.
 *
 * The fail-overs are the next `max_attempts - 1` models, plus — when not among them — the best
 * local generative model and then the extractive model (when it can answer), so remote outages
 * fall back to this machine before failing.
 *
 * Half-open models are ranked like closed ones (their error rate already costs them); the caller's
 * `HealthTracker.tryAcquire` lets only one request through as the trial and the others fail over.
 *
 * @throws ServiceError('unavailable') when there is no candidate at all.
 */
export function route(
  features: RequestFeatures,
  candidates: CandidateModel[],
  health: (modelId: string) => ModelHealth,
  policy: RoutingPolicy,
): RoutingDecision {
  if (candidates.length === 0) throw new ServiceError('unavailable', 'No model is available to answer.');

  const needs = needsOf(features);
  const required = features.prompt_tokens + REPLY_RESERVE_TOKENS;
  const scored = candidates.map((model) => score(model, health(model.id), needs, features, required, policy));
  const anyFits = scored.some((s) => s.fits);
  const kept = anyFits ? scored.filter((s) => s.fits) : scored;

  kept.sort((a, b) => {
    if (a.down !== b.down) return a.down ? 1 : -1;
    if (!anyFits && a.model.capabilities.context_tokens !== b.model.capabilities.context_tokens) {
      return b.model.capabilities.context_tokens - a.model.capabilities.context_tokens;
    }
    if (a.able !== b.able) return a.able ? -1 : 1;
    if (a.memoryOk !== b.memoryOk) return a.memoryOk ? -1 : 1;
    if (a.score !== b.score) return b.score - a.score;
    return a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0;
  });

  const chosen = kept[0]!;
  const ranked = kept.slice(0, Math.max(1, policy.max_attempts)).map((s) => s.model.id);
  // Fail-over safety net beyond max_attempts: a local model (free, private, on this machine) answers
  // rather than the request failing because remote providers are down; the built-in model is last.
  for (const last of [kept.find((s) => s.model.capabilities.local && s.model.provider !== 'extractive'), kept.find((s) => s.model.provider === 'extractive' && s.able)]) {
    if (last && !ranked.includes(last.model.id)) ranked.push(last.model.id);
  }
  return { ranked, model_id: chosen.model.id, reason: explain(chosen, kept, candidates.length, anyFits, features, policy) };
}

function needsOf(f: RequestFeatures): Need[] {
  const needs: Need[] = [];
  if (f.has_code) needs.push('code');
  if (f.has_math) needs.push('math');
  if (f.dataset_count > 0) needs.push('datasets');
  if (f.agentic) needs.push('agentic');
  if (f.prompt_tokens >= LONG_PROMPT_TOKENS) needs.push('long');
  return needs;
}

function score(
  model: CandidateModel,
  h: ModelHealth,
  needs: Need[],
  f: RequestFeatures,
  required: number,
  policy: RoutingPolicy,
): Scored {
  const caps = model.capabilities;
  const matched = needs.filter((n) => caps.strengths.includes(STRENGTH_FOR[n]));
  // What this request would pay per million tokens: its prompt at the input price, the reply reserve at the output price.
  const price =
    (f.prompt_tokens * caps.cost_per_mtok_input + REPLY_RESERVE_TOKENS * caps.cost_per_mtok_output) /
    (f.prompt_tokens + REPLY_RESERVE_TOKENS);
  const w = PREFER_WEIGHTS[policy.prefer];
  const latency = h.latency_ewma_ms === null ? 0 : h.latency_ewma_ms / (h.latency_ewma_ms + LATENCY_REF_MS);
  const fit = model.local_fit;
  const residency = fit ? (fit.loaded ? LOADED_BONUS : 0) + LOCAL_SIZE_BONUS * (fit.weights_bytes / (fit.weights_bytes + LOCAL_SIZE_REF_BYTES)) : 0;
  const scoreIfWell =
    w.quality * (caps.quality / 10) +
    w.cost * (COST_REF_PER_MTOK / (COST_REF_PER_MTOK + price)) +
    STRENGTH_BONUS * matched.length -
    (matched.length === 0 && !caps.strengths.includes('general') ? OFF_TOPIC_PENALTY : 0) +
    (caps.local && f.dataset_count > 0 ? LOCAL_WITH_DATASETS_BONUS : 0) +
    (f.agentic && TOOL_CALLING_PROVIDERS.has(model.provider) ? TOOL_CALLING_BONUS : 0) +
    residency;
  return {
    model,
    health: h,
    matched,
    able: model.provider !== 'extractive' || f.dataset_count > 0,
    down: h.circuit === 'open',
    fits: caps.context_tokens >= required,
    memoryOk: !fit || fit.fits_memory,
    price,
    score: scoreIfWell - ERROR_PENALTY * h.error_rate - policy.latency_weight * latency,
    scoreIfWell,
  };
}

// ---- the reason -------------------------------------------------------------------------------

const PREFER_LEAD: Record<RoutingPolicy['prefer'], string> = {
  quality: 'Best answer quality',
  balanced: 'Best balance of quality and cost',
  cost: 'Lowest cost',
};

function explain(
  chosen: Scored,
  kept: Scored[],
  candidateCount: number,
  anyFits: boolean,
  f: RequestFeatures,
  policy: RoutingPolicy,
): string {
  const name = displayName(chosen.model);
  if (candidateCount === 1) {
    if (!anyFits) return `Only ${name} is available, though the conversation (~${tokens(f.prompt_tokens)} tokens) may not fit its context.`;
    if (chosen.down) return `Only ${name} is available, though it is currently failing.`;
    return `Only ${name} is available.`;
  }
  const described = `${chosen.model.name} (${descriptors(chosen).join(', ')})`;
  if (chosen.down) return `Every model is currently failing: trying ${described} first.`;
  if (!anyFits) {
    const largest = Math.max(...kept.map((s) => s.model.capabilities.context_tokens));
    const which = chosen.model.capabilities.context_tokens === largest ? 'the largest' : 'the largest of the models that are working';
    return `The conversation (~${tokens(f.prompt_tokens)} tokens) is longer than every model's context: chose ${described}, which has ${which} (${tokens(chosen.model.capabilities.context_tokens)} tokens).`;
  }
  if (!chosen.able) {
    const lead = kept.some((s) => s.able) ? 'Every generative model is currently failing' : 'No generative model can hold this conversation';
    return `${lead}: chose ${described}.`;
  }

  const lead = chosen.matched.length > 0 ? sentenceCase(joinAnd(featurePhrases(chosen.matched, f))) : PREFER_LEAD[policy.prefer];
  // Say so when a model that would otherwise have won is skipped because its circuit is open.
  const skipped = kept.find((s) => s.down && s.able && s.scoreIfWell > chosen.score);
  const tail = skipped ? `; ${skipped.model.name} is skipped while it is failing` : '';
  return `${lead}: chose ${described}${tail}.`;
}

function displayName(model: CandidateModel): string {
  return model.provider === 'extractive' && !/built-in/i.test(model.name) ? `${model.name} (built-in)` : model.name;
}

function descriptors(s: Scored): string[] {
  const out: string[] = [];
  if (s.model.provider === 'extractive') out.push('built-in');
  if (s.matched.length > 0) out.push(`${joinAnd(s.matched.map((n) => KIND_WORD[n]))} model`);
  else if (s.model.capabilities.local && s.model.provider !== 'extractive') out.push('local model');
  if (s.model.local_fit?.loaded) out.push('already loaded');
  else if (s.model.local_fit && !s.memoryOk) out.push('may not fit the free memory');

  if (s.health.circuit === 'open') out.push('currently failing');
  else if (s.health.circuit === 'half_open') out.push('recovering');
  else if (s.health.error_rate >= 0.05) out.push(`${Math.round(s.health.error_rate * 100)}% recent errors`);
  else out.push('healthy');

  out.push(s.price === 0 ? 'free' : `$${s.price < 10 ? s.price.toFixed(2) : Math.round(s.price)}/M tokens`);
  return out;
}

function featurePhrases(matched: Need[], f: RequestFeatures): string[] {
  const phrases: string[] = [];
  const code = matched.includes('code');
  const math = matched.includes('math');
  if (code && math) phrases.push('code and maths in the message');
  else if (code) phrases.push('code in the message');
  else if (math) phrases.push('maths in the message');
  if (matched.includes('datasets')) phrases.push(f.dataset_count === 1 ? '1 dataset attached' : `${f.dataset_count} datasets attached`);
  if (matched.includes('agentic')) phrases.push('an agent task');
  if (matched.includes('long')) phrases.push(`a long conversation (~${tokens(f.prompt_tokens)} tokens)`);
  return phrases;
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
}

function sentenceCase(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** 950 → "950", 12_345 → "12k", 1_048_576 → "1049k": readable, and the same on every machine. */
function tokens(n: number): string {
  return n < 1000 ? String(n) : `${Math.round(n / 1000)}k`;
}
