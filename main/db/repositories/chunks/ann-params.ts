/** HNSW parameters (ann.ts builds graphs with them; the background worker too). */
export interface AnnParams {
  /** Graph degree. Default 16. */
  m: number;
  /** Candidate list while inserting. Default 100. */
  efConstruction: number;
  /** Candidate list while searching (at least k). Default 96. */
  efSearch: number;
}

export const DEFAULT_ANN: AnnParams = { m: 16, efConstruction: 100, efSearch: 96 };
