import { ServiceError } from '../../../../shared/errors.js';
import { fieldErrors } from '../../platform/field-errors.js';
import type { PartGrant } from './signing.js';
import { PartParams } from '../../../../shared/operations/files.js';

export { MAX_PART_BYTES, PartParams } from '../../../../shared/operations/files.js';

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
