import type { Citation } from '../../../shared/events.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ChunkLocation } from '../ingest/types.js';
import type { Passage, ToolSpec } from '../providers/types.js';
import { retrieve } from '../retrieval/retrieve.js';
import type { Embedder } from '../retrieval/search.js';
import { describeLocation } from '../chat/grounding.js';

/** A dataset attached to the conversation, as the agent's tools see it. */
export interface AgentDataset {
  id: string;
  name: string;
  description: string | null;
  kb_id: string;
  artifact_count: number;
}

export interface ToolEnv {
  repos: Repositories;
  embed: Embedder | undefined;
  datasets: AgentDataset[];
}

/** What a step observed, about at most one dataset (so deleting that dataset deletes the step). */
export interface Observation {
  dataset_id: string | null;
  content: string;
}

export interface ToolResult {
  /** What goes back to the model as the tool's result. */
  text: string;
  /** What the step saw, one entry per dataset it concerned. */
  observations: Observation[];
  /** The dataset the call itself concerned, when it named or implied one. */
  dataset_id: string | null;
  /** Passages met for the first time: they become citations of the answer. */
  citations: Citation[];
  /** The numbers of the passages a search found, best first. */
  passages?: number[];
}

export const SEARCH_LIMIT = 5;
const MAX_SEARCH_LIMIT = 10;
/** Neighbours read on each side of a passage. */
const READ_RADIUS = 1;
const MAX_READ_CHARS = 4_000;
const MAX_FILES_LISTED = 50;
/** Observations are for people to skim: long tool output is cut. */
export const MAX_OBSERVATION_CHARS = 1_200;

export const TOOL_SPECS: ToolSpec[] = [
  {
    name: 'search_datasets',
    description:
      'Searches the datasets attached to this conversation for passages relevant to a query (keywords, or a question). ' +
      'Returns numbered passages; cite them in the answer as [n].',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for.' },
        dataset_id: { type: 'string', description: 'Search only this dataset (its id or name); all attached datasets when absent.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many passages (default ${SEARCH_LIMIT}).` },
      },
      required: ['query'],
    },
  },
  {
    name: 'read_passage',
    description: 'Reads a passage found by search_datasets in full, with the text just before and after it in its file.',
    parameters: {
      type: 'object',
      properties: { passage: { type: 'integer', minimum: 1, description: 'The passage number [n] that search_datasets gave.' } },
      required: ['passage'],
    },
  },
  {
    name: 'open_artifact',
    description: 'Opens a file of the attached datasets by its key (as list_files shows it) and reads its beginning. The opening passage is numbered for citing.',
    parameters: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The file’s key, e.g. report.pdf.' },
        dataset_id: { type: 'string', description: 'The dataset holding it (its id or name), when several hold a file of that key.' },
      },
      required: ['key'],
    },
  },
  {
    name: 'list_datasets',
    description: 'Lists the datasets attached to this conversation: id, name, description and how many files each holds.',
    parameters: { type: 'object', properties: {} },
  },
  {
    name: 'list_files',
    description: 'Lists the files of the attached datasets (or of one of them) with their processing status.',
    parameters: {
      type: 'object',
      properties: { dataset_id: { type: 'string', description: 'Only this dataset (its id or name).' } },
    },
  },
];

export const TOOL_NAMES = TOOL_SPECS.map((t) => t.name);

interface BookEntry {
  passage: Passage;
  citation: Citation;
  chunk_id: number;
}

/**
 * The passages an agent has found, numbered in the order it met them: the same passage keeps its
 * number however often it comes back, so `[n]` means one thing in the whole answer.
 */
export class PassageBook {
  private readonly byChunk = new Map<number, BookEntry>();
  private readonly entries: BookEntry[] = [];
  /** What read_passage returned for a passage: its text with its neighbours. */
  private readonly reads = new Map<number, string>();

  add(hit: { chunk_id: number; artifact_id: string; artifact_key: string; text: string; snippet: string; location: ChunkLocation }, datasetId: string): { entry: BookEntry; added: boolean } {
    const known = this.byChunk.get(hit.chunk_id);
    if (known) return { entry: known, added: false };
    const index = this.entries.length + 1;
    const entry: BookEntry = {
      chunk_id: hit.chunk_id,
      passage: { index, artifact_key: hit.artifact_key, text: hit.text, snippet: hit.snippet, location: hit.location },
      citation: {
        index,
        dataset_id: datasetId,
        artifact_id: hit.artifact_id,
        artifact_key: hit.artifact_key,
        snippet: hit.snippet,
        location: Object.fromEntries(Object.entries(hit.location).filter(([, v]) => v !== undefined)) as Record<string, string | number>,
      },
    };
    this.byChunk.set(hit.chunk_id, entry);
    this.entries.push(entry);
    return { entry, added: true };
  }

  get(index: number): BookEntry | undefined {
    return this.entries[index - 1];
  }

  get passages(): Passage[] {
    return this.entries.map((e) => e.passage);
  }

  noteRead(index: number, text: string): void {
    this.reads.set(index, text);
  }

  /** The passages with, for those read in full, the text the read returned (what an extractive answer quotes from). */
  get passagesAsRead(): Passage[] {
    return this.entries.map((e) => {
      const read = this.reads.get(e.passage.index);
      return read === undefined ? e.passage : { ...e.passage, text: read };
    });
  }

  get citations(): Citation[] {
    return this.entries.map((e) => e.citation);
  }

  get size(): number {
    return this.entries.length;
  }
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function findDataset(env: ToolEnv, ref: unknown): AgentDataset | undefined {
  if (typeof ref !== 'string') return undefined;
  const wanted = ref.trim().toLowerCase();
  return env.datasets.find((d) => d.id.toLowerCase() === wanted) ?? env.datasets.find((d) => d.name.toLowerCase() === wanted);
}

const failed = (text: string, datasetId: string | null = null): ToolResult => ({ text, observations: [{ dataset_id: datasetId, content: text }], dataset_id: datasetId, citations: [] });

/** Which dataset a call concerns before it runs (for its tool_call step). */
export function datasetOfCall(env: ToolEnv, book: PassageBook, name: string, args: Record<string, unknown>): string | null {
  if (name === 'read_passage') return typeof args.passage === 'number' ? (book.get(args.passage)?.citation.dataset_id ?? null) : null;
  if (name === 'open_artifact' && args.dataset_id === undefined && typeof args.key === 'string') {
    const key = args.key;
    const holders = env.datasets.filter((d) => env.repos.artifacts.getByKey(d.kb_id, key));
    return holders.length === 1 ? (holders[0]?.id ?? null) : null;
  }
  if (args.dataset_id !== undefined) return findDataset(env, args.dataset_id)?.id ?? null;
  return env.datasets.length === 1 ? (env.datasets[0]?.id ?? null) : null;
}

async function searchDatasets(env: ToolEnv, book: PassageBook, args: Record<string, unknown>): Promise<ToolResult> {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (!query) return failed('search_datasets needs a non-empty "query".');
  const only = args.dataset_id === undefined ? undefined : findDataset(env, args.dataset_id);
  if (args.dataset_id !== undefined && !only) return failed(`No attached dataset is called ${JSON.stringify(args.dataset_id)}.`);
  const datasets = only ? [only] : env.datasets;
  if (datasets.length === 0) return failed('No dataset is attached to this conversation: there is nothing to search.');
  const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(Math.max(args.limit, 1), MAX_SEARCH_LIMIT) : SEARCH_LIMIT;
  const byKb = new Map(datasets.map((d) => [d.kb_id, d]));
  const { hits } = await retrieve(env, datasets, query, limit);
  const citations: Citation[] = [];
  const lines: Array<{ dataset: AgentDataset; line: string }> = [];
  const found: number[] = [];
  for (const hit of hits) {
    const dataset = byKb.get(hit.kb_id);
    if (!dataset) continue;
    const { entry, added } = book.add(hit, dataset.id);
    if (added) citations.push(entry.citation);
    found.push(entry.passage.index);
    const where = describeLocation(hit.location);
    lines.push({ dataset, line: `[${entry.passage.index}] ${hit.artifact_key}${where ? ` (${where})` : ''}: ${oneLine(hit.snippet)}` });
  }
  const concerned = only?.id ?? (datasets.length === 1 ? (datasets[0]?.id ?? null) : null);
  if (lines.length === 0) return { ...failed(`No passage matched ${JSON.stringify(query)}.`, concerned), citations };
  const text = lines.map((l) => (env.datasets.length > 1 ? `${l.line} — in ${l.dataset.name}` : l.line)).join('\n');
  // One observation per dataset that answered, so each belongs to (and is deleted with) its dataset.
  const observations = datasets
    .map((d) => ({ d, mine: lines.filter((l) => l.dataset === d) }))
    .filter((g) => g.mine.length > 0)
    .map(({ d, mine }) => ({ dataset_id: d.id, content: clip(`${mine.length} in ${d.name}:\n${mine.map((l) => l.line).join('\n')}`, MAX_OBSERVATION_CHARS) }));
  return { text, observations, dataset_id: concerned, citations, passages: found };
}

function readPassage(env: ToolEnv, book: PassageBook, args: Record<string, unknown>): ToolResult {
  const index = typeof args.passage === 'number' ? args.passage : Number.NaN;
  const entry = Number.isInteger(index) ? book.get(index) : undefined;
  if (!entry) return failed(`There is no passage ${JSON.stringify(args.passage ?? null)}: search_datasets numbers the passages it finds, from 1.`);
  const around = env.repos.chunks.around(entry.chunk_id, READ_RADIUS);
  const text = around.length > 0 ? around.map((c) => c.text).join('\n') : entry.passage.text;
  book.noteRead(index, text);
  const where = describeLocation(entry.passage.location);
  const head = `[${index}] ${entry.passage.artifact_key}${where ? ` (${where})` : ''}`;
  const datasetId = entry.citation.dataset_id;
  return {
    text: `${head}\n${clip(text, MAX_READ_CHARS)}`,
    observations: [{ dataset_id: datasetId, content: clip(`${head}, ${around.length > 1 ? `with ${around.length - 1} neighbouring passage${around.length > 2 ? 's' : ''}` : 'the whole file'}:\n${text}`, MAX_OBSERVATION_CHARS) }],
    dataset_id: datasetId,
    citations: [],
  };
}

/** Chunks read from the start of a file by open_artifact. */
const OPENING_CHUNKS = 3;

function openArtifact(env: ToolEnv, book: PassageBook, args: Record<string, unknown>): ToolResult {
  const key = typeof args.key === 'string' ? args.key : '';
  if (!key) return failed('open_artifact needs the file\'s "key".');
  const only = args.dataset_id === undefined ? undefined : findDataset(env, args.dataset_id);
  if (args.dataset_id !== undefined && !only) return failed(`No attached dataset is called ${JSON.stringify(args.dataset_id)}.`);
  const found = (only ? [only] : env.datasets).flatMap((d) => {
    const artifact = env.repos.artifacts.getByKey(d.kb_id, key);
    return artifact ? [{ d, artifact }] : [];
  })[0];
  if (!found) return failed(`No attached dataset has a file ${JSON.stringify(key)}. list_files shows the keys.`, only?.id ?? null);
  const { d, artifact } = found;
  if (artifact.status !== 'ready') return failed(`${key} in ${d.name} is ${artifact.status}: it cannot be read yet.`, d.id);
  const chunks = env.repos.chunks.opening(artifact.id, OPENING_CHUNKS);
  const first = chunks[0];
  if (!first) return failed(`${key} in ${d.name} has no text.`, d.id);
  const text = chunks.map((c) => c.text).join('\n');
  const location = JSON.parse(first.location) as ChunkLocation;
  const { entry, added } = book.add({ chunk_id: first.id, artifact_id: artifact.id, artifact_key: key, text: first.text, snippet: clip(oneLine(first.text), 240), location }, d.id);
  const head = `[${entry.passage.index}] ${key}, the beginning (${chunks.length} of ${artifact.chunk_count} passage${artifact.chunk_count === 1 ? '' : 's'})`;
  return {
    text: `${head}\n${clip(text, MAX_READ_CHARS)}`,
    observations: [{ dataset_id: d.id, content: clip(`${head}:\n${text}`, MAX_OBSERVATION_CHARS) }],
    dataset_id: d.id,
    citations: added ? [entry.citation] : [],
  };
}

function listDatasets(env: ToolEnv): ToolResult {
  if (env.datasets.length === 0) return failed('No dataset is attached to this conversation.');
  const line = (d: AgentDataset) => `${d.name} (${d.id}): ${d.artifact_count} file${d.artifact_count === 1 ? '' : 's'}${d.description ? ` — ${oneLine(d.description)}` : ''}`;
  return {
    text: env.datasets.map(line).join('\n'),
    observations: env.datasets.map((d) => ({ dataset_id: d.id, content: clip(line(d), MAX_OBSERVATION_CHARS) })),
    dataset_id: env.datasets.length === 1 ? (env.datasets[0]?.id ?? null) : null,
    citations: [],
  };
}

function listFiles(env: ToolEnv, args: Record<string, unknown>): ToolResult {
  const only = args.dataset_id === undefined ? undefined : findDataset(env, args.dataset_id);
  if (args.dataset_id !== undefined && !only) return failed(`No attached dataset is called ${JSON.stringify(args.dataset_id)}.`);
  const datasets = only ? [only] : env.datasets;
  if (datasets.length === 0) return failed('No dataset is attached to this conversation.');
  const blocks = datasets.map((d) => {
    const files = env.repos.artifacts.inKb(d.kb_id);
    const shown = files.slice(0, MAX_FILES_LISTED).map((f) => `- ${f.key} (${f.status}${f.status === 'ready' ? `, ${f.chunk_count} passage${f.chunk_count === 1 ? '' : 's'}` : ''})`);
    const more = files.length > shown.length ? `\n… and ${files.length - shown.length} more` : '';
    return { d, content: `${d.name}: ${files.length} file${files.length === 1 ? '' : 's'}${shown.length ? `\n${shown.join('\n')}` : ''}${more}` };
  });
  return {
    text: blocks.map((b) => b.content).join('\n\n'),
    observations: blocks.map((b) => ({ dataset_id: b.d.id, content: clip(b.content, MAX_OBSERVATION_CHARS) })),
    dataset_id: only?.id ?? (datasets.length === 1 ? (datasets[0]?.id ?? null) : null),
    citations: [],
  };
}

/** Runs one tool call. Bad arguments or unknown tools are answered, not thrown: the model can correct itself. */
export async function runTool(env: ToolEnv, book: PassageBook, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  switch (name) {
    case 'search_datasets':
      return searchDatasets(env, book, args);
    case 'read_passage':
      return readPassage(env, book, args);
    case 'open_artifact':
      return openArtifact(env, book, args);
    case 'list_datasets':
      return listDatasets(env);
    case 'list_files':
      return listFiles(env, args);
    default:
      return failed(`There is no tool ${JSON.stringify(name)}. The tools are: ${TOOL_NAMES.join(', ')}.`);
  }
}

/** The datasets of a conversation, for the tools. */
export function agentDatasets(repos: Repositories, ids: string[]): AgentDataset[] {
  return ids.flatMap((id) => {
    const row = repos.datasets.get(id);
    return row ? [{ id: row.id, name: row.name, description: row.description, kb_id: row.kb_id, artifact_count: row.artifact_count }] : [];
  });
}
