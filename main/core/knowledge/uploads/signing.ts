import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed part URL is bound to: one part of one file of one upload, its size and expiry. */
export interface PartGrant {
  upload_id: string;
  artifact_id: string;
  part: number;
  size: number;
  /** Unix seconds. */
  expires: number;
}

const canonical = (g: PartGrant) => `${g.upload_id}\n${g.artifact_id}\n${g.part}\n${g.size}\n${g.expires}`;

export function signPart(key: Buffer, grant: PartGrant): string {
  return createHmac('sha256', key).update(canonical(grant)).digest('base64url');
}

/** Constant-time check of a signature against the grant it claims. */
export function verifyPart(key: Buffer, grant: PartGrant, signature: string): boolean {
  const expected = Buffer.from(signPart(key, grant));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
