import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../shared/config.js';
import { ServiceError } from '../../../shared/errors.js';
import type { Capabilities } from '../../../shared/operations/models-schema.js';
import { route } from '../../../main/core/models/routing/router.js';
import { REPLY_RESERVE_TOKENS } from '../../../main/core/platform/tokens.js';
import type { CandidateModel, LocalFit, ModelHealth, RequestFeatures, RoutingPolicy } from '../../../main/core/models/routing/types.js';

function model(id: string, name: string, caps: Partial<Capabilities>, provider: CandidateModel['provider'] = 'openai_compatible'): CandidateModel {
  return {
    id,
    name,
    provider,
    capabilities: {
      strengths: ['general'],
      context_tokens: 8192,
      quality: 5,
      cost_per_mtok_input: 0,
      cost_per_mtok_output: 0,
      local: false,
      vision: false,
      ...caps,
    },
  };
}

const EXTRACTIVE = model('extractive', 'Extractive', { strengths: ['retrieval'], quality: 2, local: true, context_tokens: 1_000_000 }, 'extractive');
const GENERAL = model('general', 'General', { quality: 7, cost_per_mtok_input: 1, cost_per_mtok_output: 1, context_tokens: 32_000 });
const CODER = model('coder', 'Coder', { strengths: ['code'], quality: 6, cost_per_mtok_input: 0.2, cost_per_mtok_output: 0.2 });
const FRONTIER = model('frontier', 'Frontier', {
  strengths: ['general', 'reasoning', 'long_context'],
  quality: 10,
  cost_per_mtok_input: 15,
  cost_per_mtok_output: 15,
  context_tokens: 200_000,
});
const CHEAP = model('cheap', 'Cheap', { quality: 4, cost_per_mtok_input: 0.1, cost_per_mtok_output: 0.1 });
const ALL = [EXTRACTIVE, GENERAL, CODER, FRONTIER, CHEAP];

const POLICY: RoutingPolicy = { ...DEFAULT_CONFIG.routing, prefer: 'balanced', max_attempts: 10 };
const PLAIN: RequestFeatures = { prompt_tokens: 50, has_code: false, has_math: false, dataset_count: 0, agentic: false };
const HEALTHY: ModelHealth = { latency_ewma_ms: null, error_rate: 0, circuit: 'closed' };
const healthy = () => HEALTHY;
const withHealth = (overrides: Record<string, Partial<ModelHealth>>) => (id: string) => ({ ...HEALTHY, ...overrides[id] });
const open: Partial<ModelHealth> = { circuit: 'open', error_rate: 0.66 };

describe('route', () => {
  it('is deterministic and does not depend on the order of the candidates', () => {
    const a = route({ ...PLAIN, has_code: true }, ALL, healthy, POLICY);
    const b = route({ ...PLAIN, has_code: true }, [...ALL].reverse(), healthy, POLICY);
    expect(b).toEqual(a);
    expect(route({ ...PLAIN, has_code: true }, ALL, healthy, POLICY)).toEqual(a);
  });

  it('prefers a model that calls tools natively for an agentic request', () => {
    const builtin = model('a-builtin', 'Extractive', { quality: 6 }, 'extractive');
    const remote = model('b-remote', 'Remote', { quality: 6 });
    const withData = { ...PLAIN, dataset_count: 1 };
    expect(route(withData, [builtin, remote], healthy, POLICY).model_id).toBe('a-builtin');
    expect(route({ ...withData, agentic: true }, [builtin, remote], healthy, POLICY).model_id).toBe('b-remote');
  });

  it('counts local llama.cpp models as calling tools natively (node-llama-cpp function calling)', () => {
    const local = model('b-local', 'Local GGUF', { quality: 6 }, 'llama_cpp');
    const builtin = model('a-builtin', 'Extractive', { quality: 6 }, 'extractive');
    const agentic = { ...PLAIN, dataset_count: 1, agentic: true };
    expect(route(agentic, [builtin, local], healthy, POLICY).model_id).toBe('b-local');
  });

  it('keeps a local model and then the built-in one as fail-overs beyond max_attempts', () => {
    const remotes = ['r1', 'r2', 'r3', 'r4'].map((id) => model(id, id.toUpperCase(), { quality: 8, cost_per_mtok_input: 1, cost_per_mtok_output: 1 }));
    const local = model('z-local', 'Local GGUF', { quality: 3, local: true }, 'llama_cpp');
    const builtin = model('mdl_extractive', 'Extractive', { quality: 2, local: true }, 'extractive');
    const decision = route({ ...PLAIN, dataset_count: 1 }, [...remotes, local, builtin], healthy, { ...POLICY, max_attempts: 2 });
    expect(decision.ranked).toEqual(['r1', 'r2', 'z-local', 'mdl_extractive']);
    // Without a dataset the built-in model cannot answer, so it is not added.
    expect(route(PLAIN, [...remotes, local, builtin], healthy, { ...POLICY, max_attempts: 2 }).ranked).toEqual(['r1', 'r2', 'z-local']);
  });

  describe('among local models', () => {
    const GiB = 1024 ** 3;
    const local = (id: string, fit: Partial<LocalFit>) =>
      ({ ...model(id, `Local ${id}`, { quality: 3, local: true }, 'llama_cpp'), local_fit: { loaded: false, fits_memory: true, memory_bytes: GiB, weights_bytes: GiB, ...fit } }) as CandidateModel;

    it('prefers the loaded one to one with a smaller id (and a larger one), and says it is loaded', () => {
      const a = local('a', { weights_bytes: 4 * GiB });
      const b = local('b', { loaded: true });
      const d = route(PLAIN, [a, b], healthy, POLICY);
      expect(d.ranked).toEqual(['b', 'a']);
      expect(d.reason).toContain('already loaded');
    });

    it('with none loaded, prefers the largest that fits the free memory; one that does not fit goes after every model that does', () => {
      const small = local('a-small', { weights_bytes: 0.5 * GiB });
      const big = local('b-big', { weights_bytes: 4 * GiB });
      const huge = local('c-huge', { weights_bytes: 40 * GiB, fits_memory: false });
      expect(route(PLAIN, [small, big, huge], healthy, POLICY).ranked).toEqual(['b-big', 'a-small', 'c-huge']);
      // Even after the built-in model, when that can answer (a dataset is attached).
      const d = route({ ...PLAIN, dataset_count: 1 }, [huge, EXTRACTIVE], healthy, POLICY);
      expect(d.ranked).toEqual(['extractive', 'c-huge']);
      // A remote model answers before it, but it is still tried when nothing else is there (the estimate is on the safe side).
      expect(route(PLAIN, [huge, model('z', 'Remote', { quality: 3 })], healthy, POLICY).ranked).toEqual(['z', 'c-huge']);
      expect(route(PLAIN, [huge], healthy, POLICY).model_id).toBe('c-huge');
      expect(route(PLAIN, [huge, big], healthy, POLICY).reason).toMatch(/Local b-big/);
      expect(route(PLAIN, [huge, EXTRACTIVE], healthy, POLICY).reason).toContain('may not fit the free memory');
    });

    it('does not let being loaded outweigh a real quality difference', () => {
      const loaded = local('a', { loaded: true });
      const better = { ...local('b', {}), capabilities: { ...local('b', {}).capabilities, quality: 5 } };
      expect(route(PLAIN, [loaded, better], healthy, POLICY).model_id).toBe('b');
    });
  });

  it('breaks exact ties by model id', () => {
    const twinB = model('b', 'Twin B', { quality: 6 });
    const twinA = model('a', 'Twin A', { quality: 6 });
    expect(route(PLAIN, [twinB, twinA], healthy, POLICY).ranked).toEqual(['a', 'b']);
    expect(route(PLAIN, [twinA, twinB], healthy, POLICY).ranked).toEqual(['a', 'b']);
  });

  it('drops models whose context cannot hold the prompt plus the reply reserve', () => {
    const exactly = { ...PLAIN, prompt_tokens: 8192 - REPLY_RESERVE_TOKENS };
    expect(route(exactly, ALL, healthy, POLICY).ranked).toContain('coder');
    const over = { ...PLAIN, prompt_tokens: 8192 - REPLY_RESERVE_TOKENS + 1 };
    const d = route(over, ALL, healthy, POLICY);
    expect(d.ranked).not.toContain('coder');
    expect(d.ranked).not.toContain('cheap');
    expect(d.ranked).toContain('general');
    expect(route({ ...PLAIN, prompt_tokens: 100_000 }, ALL, healthy, POLICY).ranked).toEqual(['frontier', 'extractive']);
  });

  it('when no model can hold the conversation, keeps the largest context first and says so', () => {
    const small = [GENERAL, CODER, FRONTIER];
    const d = route({ ...PLAIN, prompt_tokens: 5_000_000 }, small, healthy, POLICY);
    expect(d.model_id).toBe('frontier');
    expect(d.ranked).toEqual(['frontier', 'general', 'coder']);
    expect(d.reason).toMatch(/longer than every model's context/);
    expect(d.reason).toContain('Frontier');
    expect(d.reason).toContain('200k tokens');
  });

  it('prefer=cost and prefer=quality pick differently', () => {
    const models = [GENERAL, FRONTIER, CHEAP];
    const cost = route(PLAIN, models, healthy, { ...POLICY, prefer: 'cost' });
    const quality = route(PLAIN, models, healthy, { ...POLICY, prefer: 'quality' });
    expect(cost.model_id).toBe('cheap');
    expect(quality.model_id).toBe('frontier');
    expect(cost.reason).toBe('Lowest cost: chose Cheap (healthy, $0.10/M tokens).');
    expect(quality.reason).toBe('Best answer quality: chose Frontier (healthy, $15/M tokens).');
  });

  it('a code request picks the code model and says why', () => {
    const d = route({ ...PLAIN, has_code: true }, ALL, healthy, POLICY);
    expect(d.model_id).toBe('coder');
    expect(d.reason).toBe('Code in the message: chose Coder (code model, healthy, $0.20/M tokens).');
    // The same models without code: the general model answers.
    expect(route(PLAIN, ALL, healthy, POLICY).model_id).toBe('general');
  });

  it('a maths request favours a maths model', () => {
    const mathy = model('mathy', 'Mathy', { strengths: ['math'], quality: 6, cost_per_mtok_input: 1, cost_per_mtok_output: 1 });
    const d = route({ ...PLAIN, has_math: true }, [GENERAL, mathy], healthy, POLICY);
    expect(d.model_id).toBe('mathy');
    expect(d.reason).toMatch(/^Maths in the message: chose Mathy/);
  });

  it('demotes a model whose circuit is open, and names it in the reason', () => {
    const d = route({ ...PLAIN, has_code: true }, ALL, withHealth({ coder: open }), POLICY);
    expect(d.model_id).not.toBe('coder');
    expect(d.ranked[d.ranked.length - 1]).toBe('coder');
    expect(d.reason).toContain('Coder is skipped while it is failing');
  });

  it('still returns a full ranking when every model is down', () => {
    const allOpen = withHealth(Object.fromEntries(ALL.map((m) => [m.id, open])));
    const d = route({ ...PLAIN, has_code: true }, ALL, allOpen, POLICY);
    expect(d.ranked).toHaveLength(ALL.length);
    expect(d.model_id).toBe('coder');
    expect(d.reason).toMatch(/^Every model is currently failing: trying Coder/);
  });

  it('penalises error rate and, by latency_weight, latency', () => {
    const a = model('a', 'A', { quality: 6 });
    const b = model('b', 'B', { quality: 6 });
    expect(route(PLAIN, [a, b], withHealth({ a: { error_rate: 0.3 } }), POLICY).model_id).toBe('b');
    const slowA = withHealth({ a: { latency_ewma_ms: 4000 }, b: { latency_ewma_ms: 300 } });
    expect(route(PLAIN, [a, b], slowA, { ...POLICY, latency_weight: 0.5 }).model_id).toBe('b');
    expect(route(PLAIN, [a, b], slowA, { ...POLICY, latency_weight: 0 }).model_id).toBe('a');
  });

  it('truncates the ranking to max_attempts', () => {
    const d = route(PLAIN, ALL, healthy, { ...POLICY, max_attempts: 2 });
    expect(d.ranked).toHaveLength(2);
    expect(d.ranked[0]).toBe(d.model_id);
    expect(route(PLAIN, ALL, healthy, { ...POLICY, max_attempts: 1 }).ranked).toEqual([d.model_id]);
  });

  it('the extractive model wins when it is the only candidate', () => {
    const d = route(PLAIN, [EXTRACTIVE], healthy, POLICY);
    expect(d).toEqual({ ranked: ['extractive'], model_id: 'extractive', reason: 'Only Extractive (built-in) is available.' });
  });

  it.each(['quality', 'balanced', 'cost'] as const)(
    'prefer=%s: the extractive model does not win an ordinary question over a healthy generative model',
    (prefer) => {
      const expensive = model('gpt', 'Big', { quality: 9, cost_per_mtok_input: 75, cost_per_mtok_output: 75 });
      const d = route(PLAIN, [EXTRACTIVE, expensive], healthy, { ...POLICY, prefer });
      expect(d.model_id).toBe('gpt');
      expect(d.ranked).toEqual(['gpt', 'extractive']);
    },
  );

  it('the extractive model answers when every generative model is down', () => {
    const d = route(PLAIN, [EXTRACTIVE, GENERAL], withHealth({ general: open }), POLICY);
    expect(d.ranked).toEqual(['extractive', 'general']);
    expect(d.reason).toBe('Every generative model is currently failing: chose Extractive (built-in, healthy, free).');
  });

  it('with datasets attached, a local model wins when nothing else distinguishes them', () => {
    const remote = model('a-remote', 'Remote', { quality: 6 });
    const local = model('b-local', 'Local', { quality: 6, local: true }, 'llama_cpp');
    expect(route(PLAIN, [remote, local], healthy, POLICY).model_id).toBe('a-remote');
    expect(route({ ...PLAIN, dataset_count: 1 }, [remote, local], healthy, POLICY).model_id).toBe('b-local');
  });

  it('names the deciding features: datasets for a retrieval model, a long conversation for a long-context one', () => {
    const cheapRetrieval = route({ ...PLAIN, dataset_count: 2 }, [EXTRACTIVE, CHEAP], healthy, { ...POLICY, prefer: 'cost' });
    expect(cheapRetrieval.reason).toBe('2 datasets attached: chose Extractive (built-in, retrieval model, healthy, free).');
    const long = route({ ...PLAIN, prompt_tokens: 20_000 }, [GENERAL, FRONTIER], healthy, { ...POLICY, prefer: 'quality' });
    expect(long.reason).toMatch(/^A long conversation \(~20k tokens\): chose Frontier \(long-context model/);
  });

  it('the reason always names the chosen model', () => {
    const cases: Array<[RequestFeatures, (id: string) => ModelHealth]> = [
      [PLAIN, healthy],
      [{ ...PLAIN, has_code: true, has_math: true }, healthy],
      [{ ...PLAIN, dataset_count: 3, agentic: true }, withHealth({ general: { circuit: 'half_open', error_rate: 0.5 } })],
      [{ ...PLAIN, prompt_tokens: 50_000 }, withHealth({ frontier: open })],
      [{ ...PLAIN, prompt_tokens: 9_000_000 }, healthy],
    ];
    for (const [features, health] of cases) {
      for (const prefer of ['quality', 'balanced', 'cost'] as const) {
        const d = route(features, ALL, health, { ...POLICY, prefer });
        const chosen = ALL.find((m) => m.id === d.model_id)!;
        expect(d.reason).toContain(chosen.name);
        expect(d.reason).toMatch(/^[A-Z0-9].*\.$/);
      }
    }
  });

  it('refuses an empty candidate list with a service error', () => {
    expect(() => route(PLAIN, [], healthy, POLICY)).toThrow(ServiceError);
  });
});
