import type { Repositories } from '../../../db/repositories/index.js';
import type { BlobStorage } from './blob-storage.js';

/**
 * Stored bytes are shared by hash (two artifacts with the same content keep one file): they go
 * once no artifact refers to them any more — after a delete, a replaced content, or an upload whose
 * dataset vanished.
 */
export async function releaseBlob(deps: { repos: Pick<Repositories, 'artifacts'>; blobs: BlobStorage }, sha256: string): Promise<void> {
  if (deps.repos.artifacts.shaUsers(sha256) === 0) await deps.blobs.remove(sha256);
}
