import { createRequire } from 'node:module';
import type * as MimeTypes from 'mime-types';
import type { z } from 'zod';
import type { UploadLimits } from '../../../../shared/operations/datasets.js';
import type { AuthedSlice } from '../../platform/context.js';

const MB = 1024 * 1024;

let mimeTypes: typeof MimeTypes | undefined;

/**
 * `uploads.limits`: what the upload page filters its picker with and checks sizes against before
 * sending, so a file over the limit is refused at once rather than reported after the upload.
 * `mime-types` is loaded at the first call, as in ingest/mime.ts: its database costs start-up time.
 */
export function uploadLimits(ctx: AuthedSlice<'config'>): z.input<typeof UploadLimits> {
  const { uploads } = ctx.config();
  mimeTypes ??= createRequire(import.meta.url)('mime-types') as typeof MimeTypes;
  const known = mimeTypes.extensions;
  const extensions = [...new Set(uploads.allowed_types.flatMap((type) => (known[type] ?? []).map((ext) => `.${ext}`)))];
  return { max_file_bytes: Math.floor(uploads.max_file_mb * MB), allowed_types: uploads.allowed_types, extensions };
}
