/**
 * Chat benchmarks over real loopback HTTP, Parley in its own process (served mode, as users run
 * it), the deterministic upstream and the client in this one:
 * - time to first token through Parley (`POST /api/chat`, SSE) against calling the upstream
 *   directly, and the difference (target: ≤ 3 ms added at p95, issue #12), with the CPU time the
 *   served process spends per request (/proc; every answer is cancelled after its first token),
 *   the figure that a loaded machine does not blur;
 * - 100 concurrent streams: every token delivered, in order, to every client.
 * It measures and reports; it asserts only correctness (a lost or reordered token fails the run).
 * Run: node --import tsx test/bench/chat.ts
 */
import { pathToFileURL } from 'node:url';
import { SLOW_TEXT, startUpstream } from '../fixtures/upstream.js';
import { startServed } from '../support/served.js';
import { readSse } from '../support/sse.js';
import { treeCpuSeconds } from './process-cpu.js';
import { printRows, summarize } from './stats.js';

const TTFT_RUNS = 300;
const CONCURRENT = 100;

async function firstChunkMs(url: string, init: RequestInit): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  for await (const e of readSse(res)) {
    if (e.event === 'message.created') continue;
    const elapsed = performance.now() - started;
    await res.body.cancel().catch(() => {});
    return elapsed;
  }
  throw new Error('stream ended before its first token');
}

export async function runChatBench() {
  const upstream = await startUpstream();
  const parley = await startServed();
  try {
    // The 100 concurrent streams are one user's: above `[chat] max_concurrent_answers` (8) unless raised.
    const { version } = (await (await parley.api('/admin/config')).json()) as { version: number };
    const raised = await parley.api('/admin/config', { method: 'PATCH', body: { values: { 'chat.max_concurrent_answers': CONCURRENT }, base_version: version } });
    if (raised.status !== 200) throw new Error(`could not raise chat.max_concurrent_answers: ${raised.status} ${await raised.text()}`);
    const headers = { authorization: `Bearer ${parley.apiKey}`, 'content-type': 'application/json' };
    const model = (await (
      await parley.api('/models', { method: 'POST', body: { name: 'Bench', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'sk-bench', model: 'echo' } })
    ).json()) as { id: string };
    const direct = () =>
      firstChunkMs(`${upstream.openaiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-bench', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'echo', stream: true, messages: [{ role: 'user', content: 'ping' }] }),
      });
    // A new thread each time, so both paths send the model one message.
    const viaParley = () =>
      firstChunkMs(`${parley.url}/api/chat`, { method: 'POST', headers, body: JSON.stringify({ message: 'ping', stream: true, model_endpoint_override: model.id }) });

    for (let i = 0; i < 30; i++) {
      await direct();
      await viaParley();
    }
    const d: number[] = [];
    const p: number[] = [];
    // The upstream runs in this process: only Parley's requests move the served process's CPU.
    const cpuBefore = treeCpuSeconds(parley.pid);
    for (let i = 0; i < TTFT_RUNS; i++) {
      d.push(await direct());
      p.push(await viaParley());
    }
    const cpuAfter = treeCpuSeconds(parley.pid);
    const cpuPerRequest = cpuBefore === null || cpuAfter === null ? '' : (((cpuAfter - cpuBefore) * 1000) / TTFT_RUNS).toFixed(2);
    const ds = summarize(d);
    const ps = summarize(p);
    const ttft = [
      { path: 'upstream directly', p50_ms: ds.p50.toFixed(2), p95_ms: ds.p95.toFixed(2) },
      { path: 'through Parley', p50_ms: ps.p50.toFixed(2), p95_ms: ps.p95.toFixed(2), served_cpu_ms_per_request: cpuPerRequest },
      { path: 'added by Parley', p50_ms: (ps.p50 - ds.p50).toFixed(2), p95_ms: (ps.p95 - ds.p95).toFixed(2) },
    ];

    const slow = (await (
      await parley.api('/models', { method: 'POST', body: { name: 'Slow', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:20' } })
    ).json()) as { id: string };
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const res = await fetch(`${parley.url}/api/chat`, { method: 'POST', headers, body: JSON.stringify({ message: `stream ${i}`, stream: true, model_endpoint_override: slow.id }) });
        let text = '';
        let lastId = -1;
        let inOrder = true;
        for await (const e of readSse(res)) {
          const id = Number(e.id);
          if (id !== lastId + 1) inOrder = false;
          lastId = id;
          if (e.event === 'delta') text += (JSON.parse(e.data) as { content: string }).content;
        }
        return { complete: text === SLOW_TEXT, inOrder };
      }),
    );
    const wall = performance.now() - started;
    const complete = results.filter((r) => r.complete).length;
    const ordered = results.filter((r) => r.inOrder).length;
    if (complete !== CONCURRENT || ordered !== CONCURRENT) throw new Error(`concurrent streams lost or reordered tokens: ${complete} complete, ${ordered} in order`);
    const concurrent = [{ streams: CONCURRENT, complete, in_order: ordered, wall_ms: wall.toFixed(0), tokens_per_stream: SLOW_TEXT.split(' ').length }];
    return { ttft, concurrent };
  } finally {
    await parley.stop();
    await upstream.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runChatBench().then(
    ({ ttft, concurrent }) => {
      printRows(`Time to first token, ${TTFT_RUNS} runs each`, ttft);
      printRows('Concurrent streams on loopback', concurrent);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
