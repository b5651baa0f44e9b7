import { createHash, createHmac } from 'node:crypto';
import { readOrCreateKey } from '../storage/key-file.js';
import { join } from 'node:path';
import type { CredentialHasher } from '../ports/credentials.js';

/** How a stored credential hash was made: bare SHA-256 (before migration 150) or keyed. */
export type HashKind = 'sha256' | 'hmac_sha256';

export const CREDENTIALS_KEY_FILE = 'credentials.key';

/**
 * HMAC-SHA-256 under a per-installation key that lives in a file of its own, so a copy of the
 * database alone cannot confirm a guessed key. Every secret has 190 bits of randomness: a slow hash
 * would buy nothing and cost one per request.
 */
export function hmacHasher(key: Buffer): CredentialHasher {
  return { hash: (secret) => createHmac('sha256', key).update(secret).digest('hex') };
}

/** How credentials were hashed before migration 150; only to recognise (and rehash) old rows. */
export function legacySha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The installation's credential key, made on first start (0600). Losing it invalidates every
 * stored key and token (as losing `secret.key` loses provider keys): it belongs in backups.
 */
export function loadCredentialKey(dataDir: string): Buffer {
  return readOrCreateKey(join(dataDir, CREDENTIALS_KEY_FILE), (file) => `${file} is not a 32-byte key; restore it from a backup (without it no API key or user token can be checked).`);
}
