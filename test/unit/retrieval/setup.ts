import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db, type OpenOptions } from '../../../main/db/connection.js';
import { createChunksRepo, type ChunksRepo } from '../../../main/search/chunks.js';
import type { Chunk } from '../../../main/core/knowledge/ingest/types.js';
import { DOCUMENTS, paragraphs } from '../../fixtures/corpus/documents.js';

export interface RetrievalDb {
  db: Db;
  chunks: ChunksRepo;
  /** Adds a dataset with its knowledge base; returns the knowledge base id. */
  addKb(name: string): string;
  /** Adds an artifact to a knowledge base and indexes its paragraphs as chunks; returns the artifact id. */
  addDocument(kbId: string, key: string, text: string): string;
  close(): void;
}

let counter = 0;

/**
 * A fresh database file (real migrations, WAL) in a temp directory. `rankingExtension: false`
 * opens it without Parley's ranking extension, as where it could not be built: FTS5 counts term weights.
 */
export function retrievalDb(options: Pick<OpenOptions, 'rankingExtension'> = {}): RetrievalDb {
  const dir = mkdtempSync(join(tmpdir(), 'parley-retrieval-'));
  const db = openDatabase(join(dir, 'parley.db'), options);
  const chunks = createChunksRepo(db);
  const now = new Date().toISOString();
  db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run('org_test', 'Test', now);
  return {
    db,
    chunks,
    addKb(name) {
      const n = ++counter;
      db.prepare('INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(`ds_${n}`, 'org_test', name, now, now);
      db.prepare('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES (?, ?, ?)').run(`kb_${n}`, `ds_${n}`, now);
      return `kb_${n}`;
    },
    addDocument(kbId, key, text) {
      const id = `art_${++counter}`;
      db.prepare(
        `INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 0, 'ready', ?, ?)`,
      ).run(id, kbId, key, key.split('/').pop() ?? key, text.length, now, now);
      const list: Chunk[] = paragraphs(text).map((p, ord) => ({ ord, text: p.text, location: { start: p.start, end: p.end } }));
      chunks.replaceForArtifact(id, undefined, list);
      return id;
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The labelled corpus in one knowledge base. */
export function corpusDb(options: Pick<OpenOptions, 'rankingExtension'> = {}): RetrievalDb & { kb: string; artifactByKey: Map<string, string> } {
  const r = retrievalDb(options);
  const kb = r.addKb('Corpus');
  const artifactByKey = new Map<string, string>();
  for (const d of DOCUMENTS) artifactByKey.set(d.key, r.addDocument(kb, d.key, d.text));
  return Object.assign(r, { kb, artifactByKey });
}
