import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text; rejection sampling keeps every character equally likely. */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** An opaque id with its type prefix: `newId('usr')` → `usr_…` (about 95 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${base62(16)}`;
}

/** A bearer secret: `pk_…`, `ut_…`, `at_…` with 190 bits of randomness. */
export function newSecret(prefix: 'pk' | 'ut' | 'at'): string {
  return `${prefix}_${base62(32)}`;
}

/**
 * What is shown to recognise a key later: its kind and four characters (`pk_AbCd`). Enough to tell
 * a handful of keys apart, too little to help anyone guess one.
 */
export function secretPrefix(secret: string): string {
  return secret.slice(0, 7);
}
