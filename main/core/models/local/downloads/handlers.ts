import { totalmem } from 'node:os';
import type { z } from 'zod';
import type { ModelDownload } from '../../../../../shared/operations/model-downloads.js';
import type { AuthedSlice } from '../../../platform/context.js';
import { withoutCredentials } from './limits.js';
import { catalogFor } from './recommended.js';
import type { DownloadView } from './runner.js';
import type { Handlers, InputOf } from '../../../platform/operation-handlers.js';

/**
 * The download as the API shows it: the output schema is a whitelist (the validator and other
 * columns stay inside), so only the URL needs changing, its credentials never shown.
 */
function view(row: DownloadView): z.input<typeof ModelDownload> {
  return { ...row, url: withoutCredentials(row.url) };
}

export function createDownload(ctx: AuthedSlice<never, 'downloads'>, input: InputOf<'models.downloads.create'>) {
  return view(ctx.runtime.downloads.start(input, ctx.caller.user.id));
}

export function listDownloads(ctx: AuthedSlice<never, 'downloads'>) {
  return { data: ctx.runtime.downloads.list().map(view) };
}

export function getDownload(ctx: AuthedSlice<never, 'downloads'>, input: InputOf<'models.downloads.get'>) {
  return view(ctx.runtime.downloads.get(input.id));
}

export function cancelDownload(ctx: AuthedSlice<never, 'downloads'>, input: InputOf<'models.downloads.cancel'>) {
  return view(ctx.runtime.downloads.cancel(input.id));
}

export function modelCatalog(ctx: AuthedSlice<'config', 'downloads'>) {
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
