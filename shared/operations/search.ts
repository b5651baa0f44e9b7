import { z } from 'zod';
import { modelText, prefixedId } from './common.js';
import { defineOperation } from './define.js';

/** Where a passage sits in its file: the page (PDF), section (headings), rows (CSV) and character offsets. */
export const PassageLocation = z.object({
  page: z.number().int().optional(),
  page_end: z.number().int().optional(),
  section: z.string().optional(),
  row_start: z.number().int().optional(),
  row_end: z.number().int().optional(),
  start: z.number().int(),
  end: z.number().int(),
});

export const SearchResult = z.object({
  chunk_id: z.number().int(),
  dataset_id: z.string(),
  kb_id: z.string(),
  artifact_id: z.string(),
  artifact_key: z.string(),
  /** Higher is better; comparable within one answer only (bm25, or the fused rank score in hybrid mode). */
  score: z.number(),
  /** The most relevant part of the passage. */
  snippet: z.string(),
  /** The whole passage, for a reader to open. */
  text: z.string(),
  location: PassageLocation,
});

export const SearchMode = z.enum(['auto', 'keyword', 'hybrid']);

export const search = defineOperation({
  name: 'search.query',
  summary:
    'Searches datasets for the passages most relevant to a question, best first. `auto` is hybrid (keyword and vector ranking fused) when an embedding model is in effect and the datasets are fully embedded, and keyword otherwise (`vectors` says how far embedding is); `hybrid` without an embedding model is a conflict. The same retrieval serves chat, agents and comparisons.',
  tag: 'Search',
  access: 'user',
  http: { method: 'POST', path: '/search', status: 200 },
  input: z.object({
    query: modelText(4000),
    dataset_ids: z.array(prefixedId('ds')).min(1).max(50),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    mode: SearchMode.default('auto'),
  }),
  output: z.object({
    data: z.array(SearchResult),
    /** The ranking actually used. */
    mode: z.enum(['keyword', 'hybrid']),
    /**
     * The searched datasets' ready passages, and how many have vectors of the embedding model in
     * effect; null with none (keyword-only). `auto` ranks by keyword until `embedded` reaches `total`.
     */
    vectors: z.object({ embedded: z.number().int(), total: z.number().int() }).nullable(),
    took_ms: z.number(),
  }),
});

export const searchEmbedding = defineOperation({
  name: 'search.embedding',
  summary:
    'The embedding model hybrid search uses now (`[retrieval] embedding_model`: chosen, or found by `auto` — shipped with the app or in Parley’s models folder), and how many of the ready passages have its vectors. `model` is null when search is keyword-only.',
  tag: 'Search',
  // The counts span every organization's datasets, and the setting is the super admin's to change.
  access: 'super_admin',
  http: { method: 'GET', path: '/search/embedding', status: 200 },
  input: z.object({}),
  output: z.object({
    /** `[retrieval] embedding_model` as saved: empty or `auto` (automatic), `none` (keyword only), or a model id. */
    setting: z.string(),
    model: z
      .object({
        /** The id `GET /models` lists it under. */
        id: z.string(),
        name: z.string(),
        /** `configured` (chosen by id), or what `auto` found: `bundled` with the app, or in `data_dir`'s models folder. */
        source: z.enum(['configured', 'bundled', 'data_dir']),
      })
      .nullable(),
    /** Every dataset's ready passages, and how many have this model's vectors (files are embedded again after a change). */
    vectors: z.object({ embedded: z.number().int(), total: z.number().int() }).nullable(),
  }),
});
