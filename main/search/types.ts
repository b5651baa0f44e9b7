import type { ChunkLocation } from '../db/repositories/chunks/chunk.js';
import type { ChunksRepo } from '../db/repositories/chunks.js';

export interface SearchQuery {
  /** Knowledge bases to search (those of the datasets attached to a message or thread). */
  kb_ids: string[];
  /** A natural-language question. */
  text: string;
  limit: number;
}

export interface SearchHit {
  chunk_id: number;
  kb_id: string;
  artifact_id: string;
  artifact_key: string;
  text: string;
  /** The most relevant part of the chunk, short enough to show under an answer. */
  snippet: string;
  location: ChunkLocation;
  /** Higher is better; comparable within one result list only. */
  score: number;
}

/** What retrieval reads and writes: the chunks repository (the rest of the repositories may come along). */
export interface RetrievalSource {
  chunks: ChunksRepo;
}

/** An OpenAI-compatible embeddings call: one vector per text, in order. */
export type Embedder = (texts: string[]) => Promise<number[][]>;

export type RetrievalLog = (line: string) => void;

/**
 * An embedding model as search uses it (the core finds and builds it: knowledge/retrieval/embedder.ts).
 * Declared here, below the core, so that whatever holds one (the runtime) needs nothing of the core's retrieval.
 */
export interface EmbeddingModel {
  /** Identifies the vectors (the model, and the prefixes its passages got); the vector index remembers it. */
  name: string;
  /** The model id it is listed under (`GET /models`). */
  id: string;
  /** What a person calls it. */
  label: string;
  /** Why this one: the one configured, or found by `auto` (bundled with the app, or in `<data-dir>/models`). */
  source: 'configured' | 'bundled' | 'data_dir';
  /** Embeds passages (indexing), with the model's passage prefix. */
  embed: Embedder;
  /** Embeds questions (search), with the model's query prefix. */
  embedQuery: Embedder;
}
