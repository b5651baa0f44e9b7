/**
 * What running the local models in a process of their own costs: SmolLM2 135M (the real test
 * model, `npm run fetch-test-models`) answering the same question greedily through the engine in
 * this process (InProcessHost) and through the model's process (ProcessHost, the built
 * dist/main/host-process.js when there is one), runs alternating (and which goes first alternating)
 * so both see the same load on a shared machine. Time to first token and tokens per second (output
 * tokens over the time from the first token to the last). Target: the process ≤ 5% slower.
 * Run: node --import tsx test/bench/model-host.ts
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigSchema } from '../../shared/config.js';
import { LocalEngine } from '../../main/core/models/local/engine.js';
import { readGgufHeader } from '../../main/core/models/local/gguf-header.js';
import { InProcessHost } from '../../main/core/models/local/host/in-process.js';
import { ProcessHost } from '../../main/core/models/local/host/client.js';
import type { ModelHost } from '../../main/core/models/local/host/types.js';
import { realModel } from '../support/real-models.js';
import { printRows, summarize } from './stats.js';

const RUNS = Number(process.env.PARLEY_BENCH_HOST_RUNS) || 12;
const MAX_TOKENS = 128;
const config = ConfigSchema.parse({ local_models: { gpu: false, threads: 1, idle_unload_seconds: 0 } });

interface Sample {
  ttft: number;
  tokensPerSecond: number;
}

async function once(host: ModelHost, path: string, header: Awaited<ReturnType<typeof readGgufHeader>>): Promise<Sample> {
  const started = performance.now();
  let first = 0;
  let tokens = 0;
  const history = [{ type: 'user' as const, text: 'Write a short story about a lighthouse keeper.' }, { type: 'model' as const, response: [] }];
  for await (const event of host.generate({ path, header, history, tools: { kind: 'none' }, agent: false, temperature: 0, max_tokens: MAX_TOKENS }, new AbortController().signal)) {
    if (event.type === 'delta' && first === 0) first = performance.now();
    if (event.type === 'usage') tokens = event.output_tokens;
  }
  const end = performance.now();
  return { ttft: first - started, tokensPerSecond: ((tokens - 1) * 1000) / (end - first) };
}

async function main() {
  const { path } = realModel('chat');
  const header = await readGgufHeader(path);
  const built = join(import.meta.dirname, '../../dist/main/host-process.js');
  const hosts: [string, ModelHost][] = [
    ['in-process', new InProcessHost(new LocalEngine({ config: () => config }))],
    ['own process', new ProcessHost({ config: () => config, script: existsSync(built) ? built : undefined })],
  ];
  const samples = new Map<string, Sample[]>(hosts.map(([name]) => [name, []]));
  // Warm-up: load the model in both and write one answer each.
  for (const [, host] of hosts) await once(host, path, header);
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? hosts : [...hosts].reverse();
    for (const [name, host] of order) samples.get(name)!.push(await once(host, path, header));
  }
  const rows: Record<string, string | number>[] = hosts.map(([name]) => {
    const s = samples.get(name)!;
    const ttft = summarize(s.map((x) => x.ttft));
    const tps = summarize(s.map((x) => x.tokensPerSecond));
    return { path: name, runs: s.length, ttft_p50_ms: ttft.p50.toFixed(1), ttft_p95_ms: ttft.p95.toFixed(1), tokens_per_s_p50: tps.p50.toFixed(1) };
  });
  // Each round's pair ran back to back: their ratio cancels the machine's load drifting between rounds.
  const [inProcess, own] = hosts.map(([name]) => samples.get(name)!) as [Sample[], Sample[]];
  const ratio = (f: (x: Sample) => number) => summarize(own.map((x, i) => f(x) / f(inProcess[i]!))).p50;
  rows.push({ path: 'own / in-process (paired median)', runs: RUNS, ttft_p50_ms: ratio((x) => x.ttft).toFixed(3), ttft_p95_ms: '', tokens_per_s_p50: ratio((x) => x.tokensPerSecond).toFixed(3) });
  printRows(`SmolLM2 135M, ${MAX_TOKENS} tokens greedy, 1 thread: the engine in this process vs the model's own process`, rows);
  for (const [, host] of hosts) await host.close();
}

await main();
