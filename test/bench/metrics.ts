/**
 * Admin metrics benchmark: an organization of 50 users with 100k usage events, 5k threads, 50k
 * messages and 2k uploaded files spread over a year, then `admin.metrics` through the service (the
 * same call both transports make) for periods of 7, 30 and 365 days.
 *
 * It measures and reports; it does not assert.
 * Run: node --import tsx test/bench/metrics.ts
 */
import { pathToFileURL } from 'node:url';
import { bootTestCore, sqliteOf } from '../support/core.js';
import { prng, printRows, summarize } from './stats.js';

const USERS = 50;
const EVENTS = 100_000;
const THREADS = 5_000;
const MESSAGES = 50_000;
const FILES = 2_000;
const SPAN_DAYS = 365;
const RUNS = 40;
const DAY = 86_400_000;

export async function runMetricsBench(): Promise<Array<Record<string, string | number>>> {
  const core = bootTestCore();
  try {
    const owner = core.desktopCaller();
    const rand = prng(42);
    const now = Date.now();
    const at = () => new Date(now - Math.floor(rand() * SPAN_DAYS * DAY)).toISOString();
    const db = sqliteOf(core);
    const users = [owner.user.id];
    db.transaction(() => {
      const user = db.prepare(
        "INSERT INTO users (id, organization_id, workspace_id, email, name, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'member', ?, ?)",
      );
      for (let i = 1; i < USERS; i++) {
        const id = `usr_bench${i}`;
        user.run(id, owner.user.organization_id, owner.user.workspace_id, `u${i}@example.com`, `User ${i}`, at(), at());
        users.push(id);
      }
      const pick = () => users[Math.floor(rand() * users.length)] ?? owner.user.id;
      const event = db.prepare("INSERT INTO usage_events (user_id, model_id, source, message_id, input_tokens, output_tokens, created_at) VALUES (?, ?, 'chat', NULL, ?, ?, ?)");
      for (let i = 0; i < EVENTS; i++) event.run(pick(), `mdl_bench${i % 8}`, 50 + Math.floor(rand() * 2000), 20 + Math.floor(rand() * 800), at());
      const thread = db.prepare('INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < THREADS; i++) thread.run(`thr_bench${i}`, pick(), owner.user.workspace_id, `Thread ${i}`, at(), at());
      const message = db.prepare("INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES (?, ?, ?, 'x', 'complete', ?, ?)");
      for (let i = 0; i < MESSAGES; i++) message.run(`msg_bench${i}`, `thr_bench${i % THREADS}`, i % 2 === 0 ? 'user' : 'assistant', at(), at());
      db.prepare("INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ('ds_bench', ?, 'Bench', 'now', 'now')").run(owner.user.organization_id);
      db.prepare("INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES ('kb_bench', 'ds_bench', 'now')").run();
      const file = db.prepare("INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, user_id, created_at, updated_at) VALUES (?, 'kb_bench', ?, ?, 1, 1, 'ready', ?, ?, ?)");
      for (let i = 0; i < FILES; i++) file.run(`art_bench${i}`, `f${i}`, `f${i}.txt`, pick(), at(), at());
    })();
    db.pragma('optimize');

    const rows: Array<Record<string, string | number>> = [];
    for (const days of [7, 30, 365]) {
      const input = { from: new Date(now - days * DAY).toISOString(), to: new Date(now).toISOString() };
      for (let i = 0; i < 5; i++) await core.service.invoke('admin.metrics', input, owner);
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await core.service.invoke('admin.metrics', input, owner);
        samples.push(performance.now() - start);
      }
      const s = summarize(samples);
      rows.push({ period: `${days} days`, events: EVENTS, p50_ms: s.p50.toFixed(1), p95_ms: s.p95.toFixed(1) });
    }
    return rows;
  } finally {
    core.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows('Admin metrics (100k usage events, 50 users)', await runMetricsBench());
}
