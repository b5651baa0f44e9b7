/** `npm run bench`: every benchmark, one after another, as tables to copy into the README. */
import { runChatBench } from './chat.js';
import { runIngestBench } from './ingest.js';
import { runLocalModelsBench } from './local-models.js';
import { runMetricsBench } from './metrics.js';
import { runPipelineBench } from './pipeline.js';
import { runRetrievalBench } from './retrieval.js';
import { runRoutingBench } from './routing.js';
import { runStartupBench } from './startup.js';
import { printRows } from './stats.js';

const routing = await runRoutingBench();
printRows('Routing (100k decisions, 20 models)', routing.map((r) => ({ benchmark: r.name, p50_us: r.p50_us.toFixed(1), p95_us: r.p95_us.toFixed(1), p99_us: r.p99_us.toFixed(1) })));
const chat = await runChatBench();
printRows('Time to first token (SSE, loopback)', chat.ttft);
printRows('Concurrent streams on loopback', chat.concurrent);
const ingest = await runIngestBench();
printRows('Ingestion (parse + chunk, built worker)', ingest.map((r) => ({ ...r })));
printRows('Upload → ready through served mode (target: plain text ≥ 40 MB/s)', await runPipelineBench());
printRows('Served mode start-up: spawn → first /api/health 200 (target ≤ 500 ms at 1M chunks)', (await runStartupBench()).map((r) => ({ ...r })));
printRows('Retrieval, top 10 (generated corpus; 1M chunks takes a few minutes to build)', (await runRetrievalBench()).map((r) => ({ ...r })));
printRows('Admin metrics (100k usage events, 50 users, a year)', await runMetricsBench());
const local = await runLocalModelsBench();
printRows('Local model (generated GGUF, 1 thread, 200 tokens per answer)', local.generation);
printRows('Local embeddings (generated GGUF, 1 thread)', local.embeddings);
