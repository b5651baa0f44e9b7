import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import type { ContextSlice } from '../../platform/context.js';
import { releaseBlob } from '../../platform/storage/release-blob.js';

/**
 * Deletes a dataset the caller was allowed to delete (`datasets.delete`, or the thread it belongs
 * to being deleted). Everything under it goes in one transaction (knowledge base, artifacts,
 * chunks, uploads, thread configurations); stored bytes no other artifact uses are removed after it
 * commits.
 */
export async function dropDataset(ctx: ContextSlice<'repos', 'folders' | 'blobs'>, dataset: DatasetRecord): Promise<void> {
  const { repos, runtime } = ctx;
  // Its folders' watchers close now, not at their next event: stopped first, so no scan of theirs
  // adds a file to the dataset while it is deleted.
  await Promise.all(repos.folders.ofDataset(dataset.id).map((f) => runtime.folders?.stop(f.id)));
  const artifacts = repos.artifacts.inKb(dataset.kb_id);
  const shas = repos.artifacts.shasOfKbs([dataset.kb_id]);
  repos.datasets.delete(dataset.id);
  for (const artifact of artifacts) await runtime.blobs.dropParts(artifact.id);
  for (const sha of shas) await releaseBlob({ repos, blobs: runtime.blobs }, sha);
}
