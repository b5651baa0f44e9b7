/** HNSW parameters (ann.ts builds graphs with them; the background worker too). */
export interface AnnParams {
  /** Graph degree. Default 16. */
  m: number;
  /** Candidate list while inserting. Default 200. */
  efConstruction: number;
  /** Candidate list while searching (at least k), for vectors of up to `wideFrom` dimensions. Default 96. */
  efSearch: number;
  /** Candidate list while searching wider vectors. Default 160. */
  efSearchWide: number;
  /** Vectors of more dimensions than this are wide. Default 768. */
  wideFrom: number;
  /** Graphs of at least this many vectors search with a third more candidates. Default 50,000. */
  largeFrom: number;
}

/**
 * Chosen by measurement (test/bench/ann-tune.ts: the retrieval bench's corpus and hashed vectors,
 * one 25k-vector graph as in the 100k bench, recall@10 against exact kNN; docs/performance.md "Vector index
 * parameters"): efConstruction 200 rather than 100 lifts recall at every ef for +45% build time;
 * at 1,536 dimensions ef 96 reaches 0.938 and ef 160 0.964, at 384 ef 96 already 0.963. M 24
 * gave the same recall for the same query time as M 16 with a higher ef, with +50% build time
 * and memory. Recall falls as a graph grows: at 384-d, ef 96 gives 0.963 on 25k vectors and 0.951
 * on 100k (ef 128: 0.970), and the 1M bench holds 250k per knowledge base — so large graphs search
 * with a third more candidates.
 */
export const DEFAULT_ANN: AnnParams = { m: 16, efConstruction: 200, efSearch: 96, efSearchWide: 160, wideFrom: 768, largeFrom: 50_000 };

/** The candidate list for a search of `k` in a graph of `size` vectors of `dimensions`. */
export function efFor(params: AnnParams, dimensions: number, size: number, k: number): number {
  const base = dimensions > params.wideFrom ? params.efSearchWide : params.efSearch;
  return Math.max(k, size >= params.largeFrom ? Math.round((base * 4) / 3) : base);
}
