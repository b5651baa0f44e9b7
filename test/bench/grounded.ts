/**
 * Grounded answers with the real small models: how often SmolLM2 135M's answer to a question whose
 * answer is in a dataset (four short Markdown files about a made-up town, test/bench/grounded/, so
 * the model cannot know the facts beforehand) contains the fact, and how often the answer cites
 * the file holding it. No target yet: the figure is written down to follow it.
 *
 * Through the service core (`chat.send`, the operation behind `POST /chat`), as a fresh install
 * runs: SmolLM2 and all-MiniLM-L6-v2 registered by path (`models.create`), the embedder chosen
 * as `[retrieval] embedding_model`, so retrieval is hybrid; temperature 0 (greedy), so a run is
 * repeatable; answers cut at 200 tokens.
 * Run: node --import tsx test/bench/grounded.ts (after npm run fetch-test-models)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bootCore } from '../../main/boot.js';
import type { Message } from '../../shared/events.js';
import { TEST_ADMIN_KEY, tempDir } from '../support/core.js';
import { realModel } from '../support/real-models.js';
import { benchEmbeddingModel } from './relevance.js';
import { printRows } from './stats.js';
import { formFiles } from '../support/form-files.js';

/** A small model may ramble to the end of its context: answers are cut here (the fact comes first when it comes). */
const MAX_TOKENS = 200;
const DATA = join(dirname(fileURLToPath(import.meta.url)), 'grounded');

interface Question {
  question: string;
  /** What the answer must contain (case-insensitive). */
  fact: RegExp;
  /** The file holding the fact. */
  file: string;
}

export const QUESTIONS: readonly Question[] = [
  { question: 'In which year was the Harrowmere lighthouse built?', fact: /1871/, file: 'lighthouse.md' },
  { question: 'Who is the keeper of the Harrowmere lighthouse?', fact: /Edith Marrow/i, file: 'lighthouse.md' },
  { question: 'How often does the lighthouse lens turn?', fact: /12 seconds|twelve seconds/i, file: 'lighthouse.md' },
  { question: 'What time does the Crooked Loaf bakery open?', fact: /six|6(:00)? ?(a\.?m|in the morning)/i, file: 'bakery.md' },
  { question: 'What is the name of the sourdough starter at the Crooked Loaf?', fact: /Old Gideon/i, file: 'bakery.md' },
  { question: 'How long does the ferry crossing to Fennick Island take?', fact: /40 minutes|forty minutes/i, file: 'ferry.md' },
  { question: 'How much does an adult return ticket on the ferry cost?', fact: /7 pounds|seven pounds|£ ?7/i, file: 'ferry.md' },
  { question: 'What is the name of the ferry to Fennick Island?', fact: /Saltwren/i, file: 'ferry.md' },
  { question: 'When is the Harrowmere Lantern Festival held?', fact: /last Saturday of October/i, file: 'festival.md' },
  { question: 'Which boat does the Lantern Festival remember?', fact: /Margery/i, file: 'festival.md' },
];

export interface GroundedResult {
  rows: Array<Record<string, string | number>>;
  summary: Array<Record<string, string | number>>;
}

export async function runGroundedBench(): Promise<GroundedResult> {
  const { dir, remove } = tempDir('parley-grounded-');
  const core = bootCore({ dataDir: dir, appVersion: 'bench', adminApiKey: TEST_ADMIN_KEY });
  try {
    const owner = core.desktopCaller();
    const add = async (path: string) => (await core.service.invoke('models.create', { provider: 'llama_cpp', model_path: path }, owner)) as { id: string };
    const chat = await add(realModel('chat').path);
    const embedder = await add(benchEmbeddingModel());
    const { version } = (await core.service.invoke('admin.config.get', {}, owner)) as { version: number };
    await core.service.invoke('admin.config.patch', { values: { 'retrieval.embedding_model': embedder.id }, base_version: version }, owner);
    const dataset = (await core.service.invoke('datasets.create', { name: 'Harrowmere' }, owner)) as { id: string; kb_id: string };
    for (const file of readdirSync(DATA).filter((f) => f.endsWith('.md')).sort()) {
      const body = readFileSync(join(DATA, file));
      await core.service.invoke('artifacts.upload', { kb_id: dataset.kb_id, files: formFiles({ filename: file, mime_type: 'text/markdown', bytes: body }) }, owner);
    }
    await core.runtime.ingest.idle();

    const rows: GroundedResult['rows'] = [];
    let facts = 0;
    let cited = 0;
    let both = 0;
    for (const q of QUESTIONS) {
      const started = performance.now();
      const { message } = (await core.service.invoke(
        'chat.send',
        { message: q.question, dataset_ids: [dataset.id], model_endpoint_override: chat.id, temperature: 0, max_tokens: MAX_TOKENS },
        owner,
      )) as { message: Message };
      const seconds = (performance.now() - started) / 1000;
      const hasFact = q.fact.test(message.content);
      const citesFile = message.citations.some((c) => c.artifact_key === q.file);
      facts += hasFact ? 1 : 0;
      cited += citesFile ? 1 : 0;
      both += hasFact && citesFile ? 1 : 0;
      rows.push({
        question: q.question,
        fact: hasFact ? 'yes' : 'no',
        cites_its_file: citesFile ? 'yes' : 'no',
        citations: message.citations.map((c) => `${c.artifact_key}${c.attribution ? ` (${c.attribution})` : ''}`).join(', '),
        status: message.status,
        seconds: seconds.toFixed(1),
        answer: message.content.replace(/\s+/g, ' ').slice(0, 140),
      });
    }
    const n = QUESTIONS.length;
    const pct = (k: number) => `${k}/${n} (${Math.round((k / n) * 100)}%)`;
    return {
      rows,
      summary: [
        { measure: 'answer contains the fact', value: pct(facts) },
        { measure: 'answer cites the file holding it', value: pct(cited) },
        { measure: 'both', value: pct(both) },
      ],
    };
  } finally {
    await core.close();
    remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runGroundedBench();
  printRows('Grounded answers, SmolLM2 135M Q4_1, temperature 0 (per question)', result.rows);
  printRows('Grounded answers, SmolLM2 135M Q4_1 over 4 Markdown files', result.summary);
}
