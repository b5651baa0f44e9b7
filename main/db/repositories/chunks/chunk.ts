/** One searchable passage of an artifact, as stored (the ingest pipeline produces them). */

/** What a citation can point at. */
export interface ChunkLocation {
  /** First page of the chunk (PDF). */
  page?: number;
  /** Last page, when the chunk runs over more than one page. */
  page_end?: number;
  section?: string;
  start: number;
  end: number;
  /** For CSV: first and last data row (1-based) in the chunk. */
  row_start?: number;
  row_end?: number;
}

export interface Chunk {
  /** 0-based order within the artifact. */
  ord: number;
  text: string;
  location: ChunkLocation;
}
