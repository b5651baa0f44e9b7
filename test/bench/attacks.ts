/**
 * Issue 27's "Done when": `/api/health` stays under 100 ms p99 while three attacks run at once
 * against a served Parley (its own process, as users run it), the deterministic upstream and the
 * attackers in this process:
 * - a long thread: 300 messages of about 200,000 characters (150 questions of 200,000 characters
 *   to the `echo` model, each answered with the question back), then QUESTIONS questions at a time
 *   to that thread, a new one as each is answered (beyond `[chat] max_concurrent_answers`, 8 by
 *   default, one is refused with 429 and asked again REOPEN_MS later);
 * - runaway answers: RUNAWAY streamed answers at a time from the `endless` upstream model (it
 *   streams until the client goes; Parley's answer ceiling ends each), a new one as each ends,
 *   asked by a second user (the owner's QUESTIONS fill its `[chat] max_concurrent_answers`);
 * - slow bodies: SLOW_BODIES connections that send the head of a POST announcing 1 MB, with no
 *   token or a bad one, then a few bytes and nothing more; each opened again once Parley has
 *   answered and closed it (a quarter of a second later: an attacker holding that many open).
 * Meanwhile a worker thread (its own event loop: the attackers' work here does not delay its
 * clock) asks `/api/health` every PROBE_GAP_MS and times each answer; the same probe runs first on
 * a quiet server for comparison. It reports and asserts nothing but the attacks running (a question
 * that fails, or a slow body not refused with 401, fails the run).
 * Run alone: node --import tsx test/bench/attacks.ts (after `npm run build`), or
 * PARLEY_BENCH_ONLY=attacks npm run bench.
 */
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startUpstream } from '../fixtures/upstream.js';
import { startServed } from '../support/served.js';
import { readSse } from '../support/sse.js';
import { printRows, summarize, type Row } from './stats.js';

const THREAD_QUESTIONS = 150;
const MESSAGE_CHARS = 200_000;
const QUESTIONS = 20;
const RUNAWAY = 3;
const SLOW_BODIES = 300;
const REOPEN_MS = 250;
const PROBE_GAP_MS = 20;
const QUIET_MS = 5_000;
const ATTACK_MS = 20_000;
/** `PARLEY_ATTACKS=thread,runaway,slow` (all by default): some of the attacks alone, to see which costs what. */
const chosen = new Set((process.env.PARLEY_ATTACKS ?? 'thread,runaway,slow').split(',').map((a) => a.trim()));

/** Probes `${url}/api/health` every `gap` ms for `ms`, from a worker thread; answers each latency in ms. */
function probeHealth(url: string, ms: number, gap: number): Promise<number[]> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, ms, gap } = workerData;
    (async () => {
      const samples = [];
      const end = performance.now() + ms;
      while (performance.now() < end) {
        const started = performance.now();
        const res = await fetch(url + '/api/health');
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error('/api/health answered ' + res.status);
        samples.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, gap));
      }
      parentPort.postMessage(samples);
    })().catch((e) => parentPort.postMessage({ error: String(e) }));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { url, ms, gap } });
    worker.once('message', (m: number[] | { error: string }) => {
      void worker.terminate();
      if (Array.isArray(m)) resolve(m);
      else reject(new Error(m.error));
    });
    worker.once('error', reject);
  });
}

/** One slow-body connection: a POST head announcing 1 MB, four bytes of it, then nothing; resolves with Parley's status once it closes the connection. */
function slowBody(baseUrl: string, i: number): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const paths = ['/api/chat', '/api/datasets', '/v1/chat/completions'];
  const auth = i % 2 === 0 ? '' : 'authorization: Bearer pk_NotARealKey0000000000\r\n';
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.write(`POST ${paths[i % paths.length]} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${1024 * 1024}\r\n${auth}\r\n{"me`);
    const done = () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    socket.on('close', done);
    socket.on('error', () => {});
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runAttacksBench(): Promise<Row[]> {
  const upstream = await startUpstream();
  const parley = await startServed();
  try {
    const headers = { authorization: `Bearer ${parley.apiKey}`, 'content-type': 'application/json' };
    const register = async (name: string, model: string) =>
      ((await (await parley.api('/models', { method: 'POST', body: { name, provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'sk-bench', model } })).json()) as { id: string }).id;
    const echo = await register('Echo', 'echo');
    const endless = await register('Endless', 'endless');
    // The runaway answers come from another user: one user's answers at once are bounded
    // (`[chat] max_concurrent_answers`), and the thread's questions would take all of the owner's.
    const member = (await (await parley.api('/admin/users', { method: 'POST', body: { email: 'runaway@example.com', name: 'Runaway', role: 'member' } })).json()) as { api_key: { key: string } };
    const memberHeaders = { authorization: `Bearer ${member.api_key.key}`, 'content-type': 'application/json' };
    const ask = async (body: Record<string, unknown>) => {
      const res = await fetch(`${parley.url}/api/chat`, { method: 'POST', headers, body: JSON.stringify({ model_endpoint_override: echo, ...body }) });
      if (res.status !== 200) throw new Error(`a question answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { thread_id: string };
    };

    // The long thread, built before the clock starts.
    const big = (i: number) => `${i} ${'lorem ipsum dolor sit amet '.repeat(MESSAGE_CHARS / 27)}`.slice(0, MESSAGE_CHARS);
    let thread = '';
    if (chosen.has('thread')) {
      thread = (await ask({ message: big(0) })).thread_id;
      for (let i = 1; i < THREAD_QUESTIONS; i++) await ask({ thread_id: thread, message: big(i) });
    }

    const quietSamples = await probeHealth(parley.url, QUIET_MS, PROBE_GAP_MS);
    const quiet = summarize(quietSamples);

    let running = true;
    const counts = { questions: 0, questionsRefused: 0, runaway: 0, slow: 0, slowRefused: 0 };
    const questionLoop = async () => {
      while (running) {
        const res = await fetch(`${parley.url}/api/chat`, { method: 'POST', headers, body: JSON.stringify({ model_endpoint_override: echo, thread_id: thread, message: 'What did I say first?' }) });
        const text = await res.text();
        if (res.status === 200) counts.questions++;
        // Beyond `[chat] max_concurrent_answers` (8 by default) one user's questions are refused:
        // the attacker asks again a little later, as the slow bodies do.
        else if (res.status === 429 && text.includes('rate_limited')) {
          counts.questionsRefused++;
          await pause(REOPEN_MS);
        } else throw new Error(`a question answered ${res.status}: ${text}`);
      }
    };
    const runawayLoop = async () => {
      while (running) {
        const res = await fetch(`${parley.url}/api/chat`, { method: 'POST', headers: memberHeaders, body: JSON.stringify({ message: 'Go on forever.', stream: true, model_endpoint_override: endless }) });
        if (res.status !== 200) throw new Error(`a runaway answer was refused: ${res.status} ${await res.text()}`);
        for await (const e of readSse(res)) {
          if (!running) break;
          void e;
        }
        await res.body?.cancel().catch(() => {});
        counts.runaway++;
      }
    };
    const slowLoop = async (i: number) => {
      while (running) {
        const status = await slowBody(parley.url, i);
        counts.slow++;
        if (status === 401) counts.slowRefused++;
        else if (running) throw new Error(`a slow body with no or a bad token was answered ${status}, not 401`);
        await pause(REOPEN_MS);
      }
    };
    const attacks = [
      ...Array.from({ length: chosen.has('thread') ? QUESTIONS : 0 }, questionLoop),
      ...Array.from({ length: chosen.has('runaway') ? RUNAWAY : 0 }, runawayLoop),
      ...Array.from({ length: chosen.has('slow') ? SLOW_BODIES : 0 }, (_, i) => slowLoop(i)),
    ].map((p) => p.catch((error: unknown) => error));
    // The attacks under way before the clock starts.
    await pause(1000);
    const samples = await probeHealth(parley.url, ATTACK_MS, PROBE_GAP_MS);
    running = false;
    const failures = (await Promise.all(attacks)).filter((e) => e !== undefined);
    if (failures.length > 0) throw new Error(`the attacks did not run as meant: ${String(failures[0])}`);
    const attacked = summarize(samples);
    const rss = await parleyRssMb(parley.pid);
    return [
      { condition: 'quiet', samples: quietSamples.length, p50_ms: quiet.p50.toFixed(1), p99_ms: quiet.p99.toFixed(1) },
      {
        condition: chosen.size === 3 ? 'health under attack (long thread, runaway answers, slow bodies)' : `health under attack (${[...chosen].join(', ')} only)`,
        samples: samples.length,
        p50_ms: attacked.p50.toFixed(1),
        p99_ms: attacked.p99.toFixed(1),
        max_ms: Math.max(...samples).toFixed(1),
        questions_answered: counts.questions,
        questions_refused_429: counts.questionsRefused,
        runaway_answers_ended: counts.runaway,
        slow_bodies_refused: `${counts.slowRefused}/${counts.slow}`,
        served_rss_mb: rss,
      },
    ];
  } finally {
    await parley.stop();
    await upstream.close();
  }
}

/** The served process's resident memory after the attacks, from /proc (empty elsewhere). */
async function parleyRssMb(pid: number): Promise<string> {
  try {
    const { readFile } = await import('node:fs/promises');
    const kb = /VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? (Number(kb) / 1024).toFixed(0) : '';
  } catch {
    return '';
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAttacksBench().then(
    (rows) => printRows(`/api/health while the issue 27 attacks run (${ATTACK_MS / 1000} s, a probe every ${PROBE_GAP_MS} ms)`, rows),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
