/**
 * Hashes bearer secrets (API keys, user tokens, access tokens) for storage and lookup; the one
 * Parley uses is auth/credential-hash.ts's HMAC under this installation's key.
 */
export interface CredentialHasher {
  hash(secret: string): string;
}
