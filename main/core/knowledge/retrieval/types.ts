import type { ChunkLocation } from '../ingest/types.js';
import type { ChunksRepo } from '../../../db/repositories/chunks.js';

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
