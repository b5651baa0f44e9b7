import type { z } from 'zod';
import type { UploadLimits } from '../../../../shared/operations/datasets.js';
import type { AuthedSlice } from '../../platform/context.js';
import { extensionsOf } from '../ingest/mime.js';

const MB = 1024 * 1024;

/**
 * `uploads.limits`: what the upload page filters its picker with and checks sizes against before
 * sending, so a file over the limit is refused at once rather than reported after the upload.
 */
export function uploadLimits(ctx: AuthedSlice<'config'>): z.input<typeof UploadLimits> {
  const { uploads } = ctx.config();
  const extensions = [...new Set(uploads.allowed_types.flatMap(extensionsOf))];
  return { max_file_bytes: Math.floor(uploads.max_file_mb * MB), allowed_types: uploads.allowed_types, extensions };
}
