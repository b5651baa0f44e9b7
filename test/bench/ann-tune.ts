/**
 * Chooses the HNSW parameters by measurement: recall@10 against exact kNN and query CPU time,
 * against efSearch (and M / efConstruction), on the retrieval bench's own corpus and vectors
 * (its cached database's chunk texts, hashed bag-of-words embeddings, its questions), with
 * hnswlib directly — one graph of one knowledge base, as the app builds them.
 *
 *   node --import tsx test/bench/ann-tune.ts [db] [vectors per graph] [dimensions,…] [M/efC,…] [ef,…]
 *   node --import tsx test/bench/ann-tune.ts test-results/bench-cache/retrieval-g1-100000.db 25000 384,1536 16/100,16/200,24/200 64,96,128,192,256
 *
 * Two recalls are printed: by id (the bench's figure: the share of exact top-10 ids found), and
 * tie-aware (ann-benchmarks' definition: a result counts when its distance is no larger than the
 * exact 10th distance). Hashed bag-of-words vectors of short texts tie a lot — many chunks share
 * the same few words with a question — so "which of the equally near chunks" is arbitrary for
 * both searches and the id figure understates the index. Query time is CPU time of this process
 * (process.cpuUsage), so a shared, loaded machine disturbs it less than wall time.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { hashedEmbedder } from '../unit/retrieval/hashed-embedder.js';

type HnswModule = { HierarchicalNSW: new (space: 'cosine', dimensions: number) => Hnsw };
const hnsw = createRequire(import.meta.url)('hnswlib-node') as HnswModule;

const [dbFile = 'test-results/bench-cache/retrieval-g1-100000.db', sizeArg = '25000', dimsArg = '384,1536', graphsArg = '16/100', efArg = '32,64,96,128,192,256'] =
  process.argv.slice(2);
const size = Number(sizeArg);
const dimensionsList = dimsArg.split(',').map(Number);
const graphs = graphsArg.split(',').map((g) => g.split('/').map(Number) as [number, number]);
const efs = efArg.split(',').map(Number);
const K = 10;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const db = new Database(dbFile, { readonly: true, fileMustExist: true });
// The first knowledge base's chunks, in id order: the graph the 100k bench builds (4 × 25k).
const texts = db
  .prepare<[number], { text: string }>("SELECT text FROM chunks WHERE kb_id = (SELECT kb_id FROM chunk_kbs ORDER BY kb_id LIMIT 1) ORDER BY id LIMIT ?")
  .all(size)
  .map((r) => r.text);
db.close();
const questions = (JSON.parse(readFileSync(`${dbFile}.questions.json`, 'utf8')) as Array<{ text: string }>).map((q) => q.text);
console.log(`${texts.length} chunks, ${questions.length} questions (${dbFile})`);

for (const dimensions of dimensionsList) {
  const embed = hashedEmbedder(dimensions);
  const vectors = await embed(texts);
  const queries = (await embed(questions)).filter((q) => q.some((x) => x !== 0));
  // Exact kNN by cosine distance (vectors are unit length): sparse dot products, the vectors have a few dozen non-zeros.
  const sparse = vectors.map((v) => {
    const idx: number[] = [];
    const val: number[] = [];
    v.forEach((x, i) => {
      if (x !== 0) {
        idx.push(i);
        val.push(x);
      }
    });
    return { idx, val };
  });
  const exact = queries.map((q) => {
    const d = sparse.map((s, id) => {
      let dot = 0;
      for (let j = 0; j < s.idx.length; j++) dot += s.val[j]! * q[s.idx[j]!]!;
      return { id, distance: 1 - dot };
    });
    d.sort((a, b) => a.distance - b.distance);
    return d.slice(0, K);
  });
  for (const [m, efConstruction] of graphs) {
    const index = new hnsw.HierarchicalNSW('cosine', dimensions);
    index.initIndex({ maxElements: vectors.length, m, efConstruction, randomSeed: 100 });
    const b0 = cpuMs();
    vectors.forEach((v, i) => index.addPoint(v, i));
    const buildS = (cpuMs() - b0) / 1000;
    for (const ef of efs) {
      index.setEf(Math.max(K, ef));
      let byId = 0;
      let byDistance = 0;
      const t0 = cpuMs();
      const found = queries.map((q) => index.searchKnn(q, K));
      const perQuery = (cpuMs() - t0) / queries.length;
      found.forEach((f, i) => {
        const truth = exact[i]!;
        const ids = new Set(truth.map((t) => t.id));
        const tenth = truth[truth.length - 1]!.distance + 1e-5;
        byId += f.neighbors.filter((n) => ids.has(n)).length / truth.length;
        byDistance += f.distances.filter((d) => d <= tenth).length / truth.length;
      });
      console.log(
        `${dimensions}-d  M ${m}  efC ${efConstruction}  build ${buildS.toFixed(1)} s cpu  ef ${ef}  recall@10 by id ${(byId / queries.length).toFixed(3)}  tie-aware ${(byDistance / queries.length).toFixed(3)}  ${perQuery.toFixed(3)} ms cpu/query`,
      );
    }
  }
}
