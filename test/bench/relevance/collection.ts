/**
 * Public IR test collections with graded judgements, read from a folder (see
 * test/bench/data/README.md for where to get them and why they are not shipped):
 * - Cranfield 1400 (`cran.all.1400`, `cran.qry`, `cranqrel`): 1,400 aeronautics abstracts, 225
 *   queries, Cleverdon's relevance codes 1 (complete answer) … 4 (minimum interest), turned into
 *   gains 4 … 1; code −1 (left unexplained by the collection's readme; read as "no interest")
 *   is gain 0. The qrels number queries 1…225 in file order, while `cran.qry` numbers them with
 *   gaps (001, 002, 004, …): queries are matched by position, as every evaluation of it does.
 * - Medline (`MED.ALL`, `MED.QRY`, `MED.REL`, the SMART collection of the same source): 1,033
 *   medical abstracts, 30 queries, binary judgements (gain 1). Its records have one field, `.W`.
 * - CISI (`CISI.ALL`, `CISI.QRY`, `CISI.REL`, same source): 1,460 library-science abstracts, 76
 *   judged queries that are paragraphs (median 21 words that are not stop words), binary judgements (gain 1).
 * - Any BEIR-format collection (`corpus.jsonl`, `queries.jsonl`, `qrels/test.tsv`), e.g.
 *   NFCorpus or TREC-COVID, whose qrels are graded (0/1/2).
 * - A SQuAD-format reading-comprehension file in Chinese or Japanese (CMRC 2018, JSQuAD): each
 *   question's relevant document is the paragraph it was asked about.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Judgements } from './metrics.js';

export interface IrDocument {
  id: string;
  title: string;
  text: string;
}

export interface IrCollection {
  name: string;
  documents: IrDocument[];
  /** Query id → text: only the queries that have judgements. */
  queries: Map<string, string>;
  /** Query id → document id → grade. */
  qrels: Map<string, Judgements>;
}

/** Cranfield's `.I n` records: each field (`.T`, `.A`, `.B`, `.W`) up to the next marker. */
function cranfieldRecords(text: string): Array<{ id: string; fields: Map<string, string> }> {
  const records: Array<{ id: string; fields: Map<string, string> }> = [];
  let field = '';
  for (const line of text.split(/\r?\n/)) {
    const id = /^\.I\s+(\S+)/.exec(line);
    if (id) {
      records.push({ id: id[1]!, fields: new Map() });
      field = '';
      continue;
    }
    const marker = /^\.([A-Z])\s*$/.exec(line);
    const record = records[records.length - 1];
    if (!record) continue;
    if (marker) {
      field = marker[1]!;
      record.fields.set(field, record.fields.get(field) ?? '');
    } else if (field) record.fields.set(field, `${record.fields.get(field) ?? ''}${line}\n`);
  }
  return records;
}

const tidy = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

export function parseCranfield(docs: string, queries: string, qrels: string): IrCollection {
  const documents = cranfieldRecords(docs).map((r) => ({ id: String(Number(r.id)), title: tidy(r.fields.get('T')), text: tidy(r.fields.get('W')) }));
  const byPosition = cranfieldRecords(queries).map((r) => tidy(r.fields.get('W')));
  const judged = new Map<string, Map<string, number>>();
  for (const line of qrels.split(/\r?\n/)) {
    const [q, d, code] = line.trim().split(/\s+/);
    if (!q || !d || code === undefined) continue;
    const c = Number(code);
    if (!Number.isInteger(c)) throw new Error(`cranqrel: a relevance code that is not a number: "${line}"`);
    const map = judged.get(q) ?? new Map<string, number>();
    map.set(String(Number(d)), c >= 1 && c <= 4 ? 5 - c : 0);
    judged.set(q, map);
  }
  const queryTexts = new Map<string, string>();
  for (const q of judged.keys()) {
    const text = byPosition[Number(q) - 1];
    if (text === undefined) throw new Error(`cranqrel: query ${q} is not in cran.qry (${byPosition.length} queries)`);
    queryTexts.set(q, text);
  }
  return { name: 'Cranfield 1400', documents, queries: queryTexts, qrels: judged };
}

/** Medline: `.I n` / `.W` records; `MED.REL` lines are `query 0 document 1`, queries numbered as in `MED.QRY`. */
export function parseMedline(docs: string, queries: string, qrels: string): IrCollection {
  const documents = cranfieldRecords(docs).map((r) => ({ id: String(Number(r.id)), title: '', text: tidy(r.fields.get('W')) }));
  const texts = new Map(cranfieldRecords(queries).map((r) => [String(Number(r.id)), tidy(r.fields.get('W'))]));
  const judged = new Map<string, Map<string, number>>();
  for (const line of qrels.split(/\r?\n/)) {
    const [q, , d, grade] = line.trim().split(/\s+/);
    if (!q || !d || grade === undefined) continue;
    const g = Number(grade);
    if (!Number.isFinite(g)) throw new Error(`MED.REL: a grade that is not a number: "${line}"`);
    const map = judged.get(String(Number(q))) ?? new Map<string, number>();
    map.set(String(Number(d)), g);
    judged.set(String(Number(q)), map);
  }
  const queryTexts = new Map<string, string>();
  for (const q of judged.keys()) {
    const text = texts.get(q);
    if (text === undefined) throw new Error(`MED.REL: query ${q} is not in MED.QRY`);
    queryTexts.set(q, text);
  }
  return { name: 'Medline (MED, 1,033)', documents, queries: queryTexts, qrels: judged };
}

/**
 * CISI (library and information science): `.I n` records with `.T`, `.A`, `.W` and `.X` (cross
 * references, not read); `CISI.REL` lines are `query document 0 0.000000`, binary judgements
 * (gain 1). Its queries are paragraphs: only the `.W` field is the request (a few queries also
 * carry `.T`/`.A`/`.B`, the bibliographic record of a source paper).
 */
export function parseCisi(docs: string, queries: string, qrels: string): IrCollection {
  const documents = cranfieldRecords(docs).map((r) => ({ id: String(Number(r.id)), title: tidy(r.fields.get('T')), text: tidy(r.fields.get('W')) }));
  const texts = new Map(cranfieldRecords(queries).map((r) => [String(Number(r.id)), tidy(r.fields.get('W'))]));
  const judged = new Map<string, Map<string, number>>();
  for (const line of qrels.split(/\r?\n/)) {
    const [q, d] = line.trim().split(/\s+/);
    if (!q || !d) continue;
    if (!Number.isInteger(Number(q)) || !Number.isInteger(Number(d))) throw new Error(`CISI.REL: a line that is not "query document …": "${line}"`);
    const map = judged.get(String(Number(q))) ?? new Map<string, number>();
    map.set(String(Number(d)), 1);
    judged.set(String(Number(q)), map);
  }
  const queryTexts = new Map<string, string>();
  for (const q of judged.keys()) {
    const text = texts.get(q);
    if (text === undefined) throw new Error(`CISI.REL: query ${q} is not in CISI.QRY`);
    queryTexts.set(q, text);
  }
  return { name: 'CISI (1,460)', documents, queries: queryTexts, qrels: judged };
}

function jsonLines(text: string, file: string): Array<Record<string, unknown>> {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const value: unknown = JSON.parse(line);
      if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file}:${i + 1}: not a JSON object`);
      return value as Record<string, unknown>;
    });
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

export function parseBeir(name: string, corpus: string, queries: string, qrels: string): IrCollection {
  const documents = jsonLines(corpus, 'corpus.jsonl').map((d) => ({ id: str(d._id), title: tidy(str(d.title)), text: tidy(str(d.text)) }));
  const allQueries = new Map(jsonLines(queries, 'queries.jsonl').map((q) => [str(q._id), str(q.text)]));
  const judged = new Map<string, Map<string, number>>();
  for (const line of qrels.split(/\r?\n/)) {
    const [q, d, grade] = line.split('\t');
    if (!q || !d || grade === undefined || q === 'query-id') continue;
    const g = Number(grade);
    if (!Number.isFinite(g)) throw new Error(`qrels: a grade that is not a number: "${line}"`);
    const map = judged.get(q) ?? new Map<string, number>();
    map.set(d, g);
    judged.set(q, map);
  }
  const queryTexts = new Map<string, string>();
  for (const q of judged.keys()) {
    const text = allQueries.get(q);
    if (text === undefined) throw new Error(`qrels: query ${q} is not in queries.jsonl`);
    queryTexts.set(q, text);
  }
  return { name, documents, queries: queryTexts, qrels: judged };
}

/**
 * A SQuAD-format reading-comprehension file read as a retrieval collection (the shape of JMTEB’s JSQuAD retrieval task):
 * the documents are the distinct paragraphs (`context`), the queries the questions, and a
 * question's one relevant document the paragraph it was asked about (gain 1). JSQuAD writes its
 * paragraphs `title [SEP] text` (for its models): read as title and text.
 */
export function parseSquad(name: string, json: string): IrCollection {
  const file = JSON.parse(json) as { data?: Array<{ paragraphs?: Array<{ context?: unknown; qas?: Array<{ id?: unknown; question?: unknown }> }> }> };
  if (!Array.isArray(file.data)) throw new Error(`${name}: not a SQuAD-format file (no "data" list)`);
  const idOfContext = new Map<string, string>();
  const documents: IrDocument[] = [];
  const queries = new Map<string, string>();
  const qrels = new Map<string, Map<string, number>>();
  for (const article of file.data) {
    for (const paragraph of article.paragraphs ?? []) {
      const context = str(paragraph.context);
      if (context.trim() === '') continue;
      let id = idOfContext.get(context);
      if (id === undefined) {
        id = String(documents.length);
        idOfContext.set(context, id);
        const sep = context.indexOf(' [SEP] ');
        documents.push(sep >= 0 ? { id, title: tidy(context.slice(0, sep)), text: tidy(context.slice(sep + 7)) } : { id, title: '', text: tidy(context) });
      }
      for (const qa of paragraph.qas ?? []) {
        const q = str(qa.id);
        const question = tidy(str(qa.question));
        if (q === '' || question === '') continue;
        queries.set(q, question);
        qrels.set(q, new Map([[id, 1]]));
      }
    }
  }
  return { name, documents, queries, qrels };
}

/** The collection in `dir`, whichever of the five layouts it has; undefined when it has neither. */
export function loadCollection(dir: string): IrCollection | undefined {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  if (existsSync(join(dir, 'cran.all.1400'))) return parseCranfield(read('cran.all.1400'), read('cran.qry'), read('cranqrel'));
  if (existsSync(join(dir, 'MED.ALL'))) return parseMedline(read('MED.ALL'), read('MED.QRY'), read('MED.REL'));
  if (existsSync(join(dir, 'CISI.ALL'))) return parseCisi(read('CISI.ALL'), read('CISI.QRY'), read('CISI.REL'));
  // A SQuAD-format file (JSQuAD's `valid-v1.3.json`, CMRC 2018's `cmrc2018_dev.json`): the folder's one JSON file.
  const squad = readdirSync(dir).filter((f) => f.endsWith('.json'));
  if (squad.length === 1 && !existsSync(join(dir, 'corpus.jsonl'))) return parseSquad(`${squad[0]!.replace(/\.json$/, '')} (questions → their paragraphs)`, read(squad[0]!));
  if (existsSync(join(dir, 'corpus.jsonl'))) {
    const name = dir.split(/[\\/]/).filter(Boolean).pop() ?? 'BEIR';
    return parseBeir(`${name} (BEIR test split)`, read('corpus.jsonl'), read('queries.jsonl'), read(join('qrels', 'test.tsv')));
  }
  return undefined;
}
