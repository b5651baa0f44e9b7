import type { Citation } from '../../../../shared/events.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { ChunkLocation } from '../../knowledge/ingest/types.js';
import type { Passage } from '../../platform/ports/providers.js';
import { retrieve, type RetrievalEnv } from '../../knowledge/retrieval/retrieve.js';
import { describeLocation } from '../grounding.js';
import { isToolName, parseToolArgs, SEARCH_LIMIT, TOOL_NAMES, type ToolArgs, type ToolName } from './tool-args.js';

export { SEARCH_LIMIT, TOOL_NAMES, TOOL_SPECS } from './tool-args.js';

/** A dataset attached to the conversation, as the agent's tools see it. */
export interface AgentDataset {
  id: string;
  name: string;
  description: string | null;
  kb_id: string;
  artifact_count: number;
}

export interface ToolEnv extends RetrievalEnv {
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

/** Neighbours read on each side of a passage. */
const READ_RADIUS = 1;
const MAX_READ_CHARS = 4_000;
const MAX_FILES_LISTED = 50;
/** Observations are for people to skim: long tool output is cut. */
export const MAX_OBSERVATION_CHARS = 1_200;

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

function findDataset(env: ToolEnv, ref: string): AgentDataset | undefined {
  const wanted = ref.trim().toLowerCase();
  return env.datasets.find((d) => d.id.toLowerCase() === wanted) ?? env.datasets.find((d) => d.name.toLowerCase() === wanted);
}

const failed = (text: string, datasetId: string | null = null): ToolResult => ({ text, observations: [{ dataset_id: datasetId, content: text }], dataset_id: datasetId, citations: [] });

/** Which dataset a call concerns before it runs (for its tool_call step). */
export function datasetOfCall(env: ToolEnv, book: PassageBook, name: string, rawArgs: Record<string, unknown>): string | null {
  // A call with bad arguments concerns no dataset: it is answered with what is wrong.
  const parsed = isToolName(name) ? parseToolArgs(name, rawArgs) : undefined;
  if (!parsed?.ok) return null;
  const args: { passage?: number; key?: string; dataset_id?: string | undefined } = parsed.args;
  if (name === 'read_passage' && args.passage !== undefined) return book.get(args.passage)?.citation.dataset_id ?? null;
  if (name === 'open_artifact' && args.dataset_id === undefined && args.key !== undefined) {
    const key = args.key;
    const holders = env.datasets.filter((d) => env.repos.artifacts.getByKey(d.kb_id, key));
    return holders.length === 1 ? (holders[0]?.id ?? null) : null;
  }
  if (args.dataset_id !== undefined) return findDataset(env, args.dataset_id)?.id ?? null;
  return env.datasets.length === 1 ? (env.datasets[0]?.id ?? null) : null;
}

async function searchDatasets(env: ToolEnv, book: PassageBook, args: ToolArgs<'search_datasets'>): Promise<ToolResult> {
  const { query } = args;
  const only = args.dataset_id === undefined ? undefined : findDataset(env, args.dataset_id);
  if (args.dataset_id !== undefined && !only) return failed(`No attached dataset is called ${JSON.stringify(args.dataset_id)}.`);
  const datasets = only ? [only] : env.datasets;
  if (datasets.length === 0) return failed('No dataset is attached to this conversation: there is nothing to search.');
  const limit = args.limit ?? SEARCH_LIMIT;
  // retrieve() gives each hit the dataset it came from: only those searched here can come back.
  const { hits } = await retrieve(env, datasets, query, limit);
  const citations: Citation[] = [];
  const lines: Array<{ dataset: AgentDataset; line: string }> = [];
  const found: number[] = [];
  for (const hit of hits) {
    const dataset = datasets.find((d) => d.id === hit.dataset_id);
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

function readPassage(env: ToolEnv, book: PassageBook, args: ToolArgs<'read_passage'>): ToolResult {
  const index = args.passage;
  const entry = book.get(index);
  if (!entry) return failed(`There is no passage ${index}: search_datasets numbers the passages it finds, from 1.`);
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

function openArtifact(env: ToolEnv, book: PassageBook, args: ToolArgs<'open_artifact'>): ToolResult {
  const { key } = args;
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
  const { location } = first;
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

function listFiles(env: ToolEnv, args: ToolArgs<'list_files'>): ToolResult {
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

/** Runs `run` with the call's arguments as the tool's schema reads them, or answers what is wrong with them. */
async function withArgs<N extends ToolName>(name: N, args: Record<string, unknown>, run: (args: ToolArgs<N>) => ToolResult | Promise<ToolResult>): Promise<ToolResult> {
  const parsed = parseToolArgs(name, args);
  return parsed.ok ? run(parsed.args) : failed(parsed.problem);
}

/** Runs one tool call. Bad arguments or unknown tools are answered, not thrown: the model can correct itself. */
export async function runTool(env: ToolEnv, book: PassageBook, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  switch (name) {
    case 'search_datasets':
      return withArgs(name, args, (a) => searchDatasets(env, book, a));
    case 'read_passage':
      return withArgs(name, args, (a) => readPassage(env, book, a));
    case 'open_artifact':
      return withArgs(name, args, (a) => openArtifact(env, book, a));
    case 'list_datasets':
      return withArgs(name, args, () => listDatasets(env));
    case 'list_files':
      return withArgs(name, args, (a) => listFiles(env, a));
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
