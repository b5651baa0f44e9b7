import { z } from 'zod';
import { ServiceError } from '../../../../shared/errors.js';
import { fieldErrors } from '../../service/service.js';
import type { PartGrant } from './signing.js';

/** Largest part either transport accepts; a part's signed size is checked against its bytes too. */
export const MAX_PART_BYTES = 512 * 1024 * 1024;

/** The fields of a signed part URL: path parameters and query together. */
export const PartParams = z.object({
  upload_id: z.string().regex(/^upl_[A-Za-z0-9]+$/),
  artifact_id: z.string().regex(/^art_[A-Za-z0-9]+$/),
  part: z.coerce.number().int().min(1).max(100_000),
  size: z.coerce.number().int().min(0),
  expires: z.coerce.number().int().min(0),
  signature: z.string().min(1).max(200),
});

export interface SignedPart {
  grant: PartGrant;
  signature: string;
}

/** Path parameters and query of a part request → what the signature is checked against. */
export function signedPartOf(raw: unknown): SignedPart {
  const result = PartParams.safeParse(raw);
  if (!result.success) throw new ServiceError('invalid_argument', 'The upload URL is malformed.', fieldErrors(result.error));
  const { signature, ...grant } = result.data;
  return { grant, signature };
}

const PART_PATH = /^\/api\/uploads\/([^/]+)\/parts\/([^/]+)\/([^/]+)$/;

/**
 * A signed part URL as the core hands it out (absolute when the HTTP server runs, `/api/…` when it
 * does not) → the grant, for transports that receive the URL itself rather than a routed request.
 */
export function parsePartUrl(url: string): SignedPart {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://parley.invalid');
  } catch {
    throw new ServiceError('invalid_argument', 'The upload URL is malformed.');
  }
  const match = PART_PATH.exec(parsed.pathname);
  if (!match) throw new ServiceError('invalid_argument', 'The upload URL is not a part URL of an upload.');
  const [, upload_id, artifact_id, part] = match;
  return signedPartOf({ upload_id, artifact_id, part, ...Object.fromEntries(parsed.searchParams) });
}
