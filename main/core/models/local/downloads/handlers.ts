import { totalmem } from 'node:os';
import type { AuthedContext } from '../../../platform/context.js';
import { withoutCredentials } from './limits.js';
import { catalogFor } from './recommended.js';
import type { DownloadView } from './runner.js';
import type { Handlers } from '../../../platform/operation-handlers.js';

/** The row as the API shows it (the validator stays inside). */
function view(row: DownloadView) {
  return {
    id: row.id,
    url: withoutCredentials(row.url),
    file_name: row.file_name,
    status: row.status,
    bytes_done: row.bytes_done,
    bytes_total: row.bytes_total,
    sha256_expected: row.sha256_expected,
    sha256_source: row.sha256_source,
    sha256: row.sha256,
    error: row.error,
    resumes: row.resumes,
    retry_at: row.retry_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createDownload(ctx: AuthedContext, input: { url: string; sha256?: string | undefined; name?: string | undefined }) {
  return view(ctx.runtime.downloads.start(input, ctx.caller.user.id));
}

export function listDownloads(ctx: AuthedContext) {
  return { data: ctx.runtime.downloads.list().map(view) };
}

export function getDownload(ctx: AuthedContext, input: { id: string }) {
  return view(ctx.runtime.downloads.get(input.id));
}

export function cancelDownload(ctx: AuthedContext, input: { id: string }) {
  return view(ctx.runtime.downloads.cancel(input.id));
}

export function modelCatalog(ctx: AuthedContext) {
  const memory = totalmem();
  return { memory_total_bytes: memory, data: catalogFor(memory, ctx.runtime.downloads.modelsDir, ctx.config().local_models) };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const modelDownloadHandlers: Pick<Handlers, 'models.catalog' | 'models.downloads.create' | 'models.downloads.list' | 'models.downloads.get' | 'models.downloads.cancel'> = {
  'models.catalog': modelCatalog,
  'models.downloads.create': createDownload,
  'models.downloads.list': listDownloads,
  'models.downloads.get': getDownload,
  'models.downloads.cancel': cancelDownload,
};
