import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readOrCreateKey } from '../storage/key-file.js';
import { join } from 'node:path';

/**
 * Encrypts provider secrets at rest. The desktop app uses the OS keychain (Electron safeStorage);
 * served mode and tests use a key file with mode 0600 in the data directory.
 */
export interface SecretBox {
  seal(plain: string): Buffer;
  open(sealed: Buffer): string;
}

const KEY_FILE = 'secret.key';
/** First byte of every sealed secret: which box can open it. */
const KEY_FILE_FORMAT = 1;
const OS_KEYCHAIN_FORMAT = 2;

function loadOrCreateKey(dataDir: string): Buffer {
  return readOrCreateKey(join(dataDir, KEY_FILE), (file) => `${file} is not a 32-byte key; restore it from a backup or remove it and re-enter provider keys.`);
}

/** AES-256-GCM with a per-install key file: `[format 1][iv 12][tag 16][ciphertext]`. */
export function keyFileSecretBox(dataDir: string): SecretBox {
  let key: Buffer | undefined;
  const getKey = () => (key ??= loadOrCreateKey(dataDir));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([KEY_FILE_FORMAT]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      if (sealed[0] === OS_KEYCHAIN_FORMAT) {
        throw new Error("This provider key was encrypted with the desktop app's OS keychain: open it in the desktop app, or enter the key again here.");
      }
      if (sealed[0] !== KEY_FILE_FORMAT || sealed.length < 29) throw new Error('A stored provider key is damaged; enter it again.');
      const decipher = createDecipheriv('aes-256-gcm', getKey(), sealed.subarray(1, 13));
      decipher.setAuthTag(sealed.subarray(13, 29));
      return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
    },
  };
}

/** The part of Electron's `safeStorage` this needs (injected: the core never imports Electron). */
export interface OsKeychain {
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * The desktop app's box: new secrets are sealed by the OS keychain (`[format 2][safeStorage blob]`);
 * secrets sealed earlier by the key file (served mode on the same data) still open.
 */
export function osKeychainSecretBox(keychain: OsKeychain, keyFile: SecretBox): SecretBox {
  return {
    seal: (plain) => Buffer.concat([Buffer.from([OS_KEYCHAIN_FORMAT]), keychain.encryptString(plain)]),
    open: (sealed) => (sealed[0] === OS_KEYCHAIN_FORMAT ? keychain.decryptString(sealed.subarray(1)) : keyFile.open(sealed)),
  };
}
