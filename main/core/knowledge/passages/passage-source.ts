import { LRUCache } from 'lru-cache';
import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice } from '../../platform/context.js';
import { parseStoredDocument } from '../ingest/parse.js';
import { IngestError, type ParsedDocument } from '../ingest/types.js';
import { sourceView } from './source-view.js';
import type { InputOf } from '../../platform/operation-handlers.js';
import { visible } from '../datasets/access.js';

const MB = 1024 * 1024;
/**
 * Parsed documents kept for the next look (a reader opens several passages of one file), by
 * content hash and type: a stored file never changes under its hash. The least recently looked at
 * goes first.
 */
const parsed = new LRUCache<string, Promise<ParsedDocument>>({ max: 4 });

function cachedParse(key: string, parse: () => Promise<ParsedDocument>): Promise<ParsedDocument> {
  const hit = parsed.get(key);
  if (hit) return hit;
  const pending = parse();
  parsed.set(key, pending);
  // A failure is not kept: the next look tries again (unless another parse took its place meanwhile).
  pending.catch(() => {
    if (parsed.peek(key) === pending) parsed.delete(key);
  });
  return pending;
}

/**
 * `GET /artifacts/{artifact_id}/source`: a cited passage where it sits in its file (sourceView).
 * A file of another organization's dataset is not found, never confirmed; one not processed yet
 * (or failed) is a conflict, since there is no text to show.
 */
export async function readPassageSource(ctx: AuthedSlice<'repos' | 'config', 'blobs'>, input: InputOf<'passages.source'>) {
  const missing = () => new ServiceError('not_found', `No file ${input.artifact_id}.`);
  const artifact = ctx.repos.artifacts.get(input.artifact_id);
  if (!artifact) throw missing();
  const dataset = ctx.repos.datasets.getByKb(artifact.kb_id);
  if (!visible(ctx, dataset)) throw missing();
  if (artifact.status !== 'ready' || !artifact.sha256 || !artifact.mime_type) {
    throw new ServiceError('conflict', `${artifact.key} is not processed (${artifact.status}); its passages cannot be shown yet.`);
  }
  const { uploads } = ctx.config();
  const { sha256, mime_type: mime } = artifact;
  let doc: ParsedDocument;
  try {
    doc = await cachedParse(`${sha256}:${mime}`, () =>
      ctx.runtime.blobs.withLocalFile(sha256, (path) =>
        parseStoredDocument(
          { path, size: artifact.size, mime, filename: artifact.filename },
          { maxBytes: uploads.max_file_mb * MB, timeoutMs: uploads.parse_timeout_seconds * 1000, memoryMb: uploads.parse_memory_mb },
        ),
      ),
    );
  } catch (error) {
    // Limits lowered since it was indexed, a parser that now fails: say so, never a 5xx.
    if (error instanceof IngestError) throw new ServiceError('conflict', `${artifact.key} could not be read again: ${error.message}`);
    throw error;
  }
  const view = sourceView(doc, input.start, input.end, input.focus);
  if (!view) throw new ServiceError('not_found', `${artifact.key} has no passage at ${input.start}–${input.end}.`);
  return { artifact_id: artifact.id, artifact_key: artifact.key, dataset_id: dataset.id, ...view };
}
