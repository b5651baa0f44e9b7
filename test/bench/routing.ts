/**
 * Routing benchmark: 20 candidate models with mixed capabilities and health, 100k decisions over
 * generated requests (~2 KB messages with prose, code, maths, datasets, agentic flags, short and
 * long threads). Feature extraction and route() are timed separately, then together.
 *
 * It measures and reports; it does not assert the target (routing decision ≤ 1 ms p99).
 * Run: node --import tsx test/bench/routing.ts
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_CONFIG } from '../../shared/config.js';
import type { Strength } from '../../shared/operations/models-schema.js';
import { extractFeatures, type FeatureInput } from '../../main/core/models/routing/features.js';
import { HealthTracker } from '../../main/core/models/routing/health.js';
import { route } from '../../main/core/models/routing/router.js';
import type { CandidateModel, RoutingPolicy } from '../../main/core/models/routing/types.js';
import { prng } from './stats.js';

export interface BenchResult {
  name: string;
  p50_us: number;
  p95_us: number;
  p99_us: number;
}

const DECISIONS = 100_000;
const WARMUP = 5_000;
const DISTINCT_REQUESTS = 2_000;


function candidates(rand: () => number): CandidateModel[] {
  const strengthSets: Strength[][] = [
    ['general'],
    ['general', 'reasoning'],
    ['code'],
    ['general', 'code'],
    ['math', 'reasoning'],
    ['general', 'long_context'],
    ['general', 'agentic'],
    ['retrieval', 'general'],
  ];
  const providers: CandidateModel['provider'][] = ['openai_compatible', 'anthropic', 'llama_cpp'];
  const models: CandidateModel[] = [
    {
      id: 'm00-extractive',
      name: 'Extractive',
      provider: 'extractive',
      capabilities: { strengths: ['retrieval'], context_tokens: 1_000_000, quality: 2, cost_per_mtok_input: 0, cost_per_mtok_output: 0, local: true, vision: false },
    },
  ];
  for (let i = 1; i < 20; i++) {
    const provider = providers[i % providers.length]!;
    const local = provider === 'llama_cpp';
    const price = local ? 0 : Math.round(rand() * 3000) / 100;
    models.push({
      id: `m${String(i).padStart(2, '0')}`,
      name: `Model ${i}`,
      provider,
      capabilities: {
        strengths: strengthSets[i % strengthSets.length]!,
        context_tokens: [4096, 8192, 32_000, 128_000, 200_000][i % 5]!,
        quality: 1 + Math.floor(rand() * 10),
        cost_per_mtok_input: price,
        cost_per_mtok_output: price * 4,
        local,
        vision: false,
      },
    });
  }
  return models;
}

const PROSE =
  'Could you look at the quarterly figures and tell me what changed since last spring? The team thinks the new onboarding flow helped, but nobody has checked the numbers carefully. ';
const CODE = 'function total(items) {\n  return items.reduce((sum, x) => sum + x.price, 0);\n}\n';
const MATH = 'Solve for x: 3x^2 + 2x - 5 = 0, then compute the integral of the result. ';

function message(rand: () => number): string {
  const parts: string[] = [];
  const withCode = rand() < 0.3;
  const withMath = rand() < 0.2;
  let length = 0;
  while (length < 2048) {
    const r = rand();
    const part = withCode && r < 0.3 ? CODE : withMath && r < 0.5 ? MATH : PROSE;
    parts.push(part);
    length += part.length;
  }
  return parts.join('\n').slice(0, 2048);
}

function requests(rand: () => number): FeatureInput[] {
  const out: FeatureInput[] = [];
  for (let i = 0; i < DISTINCT_REQUESTS; i++) {
    const turns = Math.floor(rand() * 12);
    const context = Array.from({ length: turns }, (_, t) => ({
      role: t % 2 === 0 ? 'user' : 'assistant',
      // Some threads are long enough to need a large context or a long_context model.
      content: 'x'.repeat(rand() < 0.1 ? 40_000 : 800),
    }));
    out.push({ message: message(rand), context, dataset_count: rand() < 0.3 ? 1 + Math.floor(rand() * 3) : 0, agentic: rand() < 0.15 });
  }
  return out;
}

function percentiles(name: string, samples: Float64Array): BenchResult {
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2));
  return { name, p50_us: at(0.5), p95_us: at(0.95), p99_us: at(0.99) };
}

export async function runRoutingBench(): Promise<BenchResult[]> {
  const rand = prng(42);
  const models = candidates(rand);
  const inputs = requests(rand);

  // Mixed health: a few models slow, some failing, one open and one half open, all on a fake clock.
  const clock = { t: 0 };
  const tracker = new HealthTracker(DEFAULT_CONFIG.routing, () => clock.t);
  models.forEach((m, i) => {
    for (let k = 0; k < 10; k++) tracker.recordSuccess(m.id, 200 + ((i * 137 + k * 61) % 3000));
    if (i % 4 === 1) tracker.recordFailure(m.id);
  });
  for (let k = 0; k < 3; k++) tracker.recordFailure('m05');
  for (let k = 0; k < 3; k++) tracker.recordFailure('m09');
  clock.t += 31_000; // m05 and m09 half open
  for (let k = 0; k < 3; k++) tracker.recordFailure('m05'); // m05 open again
  const health = (id: string) => tracker.health(id);

  const policies: RoutingPolicy[] = (['quality', 'balanced', 'cost'] as const).map((prefer, i) => ({
    ...DEFAULT_CONFIG.routing,
    prefer,
    latency_weight: [0.2, 0.5, 0][i]!,
  }));

  const extractUs = new Float64Array(DECISIONS);
  const routeUs = new Float64Array(DECISIONS);
  const totalUs = new Float64Array(DECISIONS);
  let sink = 0;

  for (let i = -WARMUP; i < DECISIONS; i++) {
    const j = (i + WARMUP) % inputs.length;
    const input = inputs[j]!;
    const policy = policies[j % policies.length]!;
    const t0 = process.hrtime.bigint();
    const features = extractFeatures(input);
    const t1 = process.hrtime.bigint();
    const decision = route(features, models, health, policy);
    const t2 = process.hrtime.bigint();
    sink += decision.ranked.length + decision.reason.length;
    if (i >= 0) {
      extractUs[i] = Number(t1 - t0) / 1000;
      routeUs[i] = Number(t2 - t1) / 1000;
      totalUs[i] = Number(t2 - t0) / 1000;
    }
    // Keep health moving a little, as real traffic would.
    if (j % 97 === 0) tracker.recordSuccess(decision.model_id, 150 + (j % 900));
  }
  if (sink === 0) throw new Error('routing produced no decisions');

  return [
    percentiles('routing: extractFeatures (~2 KB message + thread)', extractUs),
    percentiles('routing: route() over 20 candidates', routeUs),
    percentiles('routing: extract + route', totalUs),
  ];
}

function printTable(results: BenchResult[]): void {
  const width = Math.max(...results.map((r) => r.name.length));
  const cell = (v: string | number) => String(v).padStart(9);
  console.log(`${'benchmark'.padEnd(width)} ${cell('p50 µs')} ${cell('p95 µs')} ${cell('p99 µs')}`);
  for (const r of results) console.log(`${r.name.padEnd(width)} ${cell(r.p50_us)} ${cell(r.p95_us)} ${cell(r.p99_us)}`);
  console.log(`(${DECISIONS.toLocaleString('en')} decisions; target for a routing decision: p99 ≤ 1000 µs)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runRoutingBench().then(printTable, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
