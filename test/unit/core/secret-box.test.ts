import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFileSecretBox, osKeychainSecretBox } from '../../../main/core/platform/secrets/secret-box.js';
import { tempDir } from '../../support/core.js';

const dirs: Array<() => void> = [];
afterEach(() => dirs.splice(0).forEach((r) => r()));
const dir = () => {
  const t = tempDir();
  dirs.push(t.remove);
  return t.dir;
};

describe('key-file secret box', () => {
  it('round-trips a secret, never storing it in clear, with a key file only its owner can read', () => {
    const d = dir();
    const box = keyFileSecretBox(d);
    const sealed = box.seal('sk-secret-value');
    expect(sealed.toString('latin1')).not.toContain('sk-secret-value');
    expect(box.open(sealed)).toBe('sk-secret-value');
    expect(statSync(join(d, 'secret.key')).mode & 0o777).toBe(0o600);
    // Another process over the same data directory reads the same key.
    expect(keyFileSecretBox(d).open(sealed)).toBe('sk-secret-value');
  });

  it('refuses a tampered secret and a secret sealed with another key', () => {
    const box = keyFileSecretBox(dir());
    const sealed = box.seal('value');
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(() => box.open(tampered)).toThrow();
    expect(() => keyFileSecretBox(dir()).open(sealed)).toThrow();
  });
});

describe('OS keychain secret box (desktop)', () => {
  // Stands in for Electron's safeStorage, which needs the OS keychain; reversible, and not the clear text.
  const keychain = {
    encryptString: (plain: string) => Buffer.from(Buffer.from(plain).toString('base64').split('').reverse().join('')),
    decryptString: (sealed: Buffer) => Buffer.from(sealed.toString().split('').reverse().join(''), 'base64').toString(),
  };

  it('seals with the keychain, still opens what the key file sealed, and served mode says why it cannot open the keychain’s', () => {
    const d = dir();
    const keyFile = keyFileSecretBox(d);
    const desktop = osKeychainSecretBox(keychain, keyFile);
    const fromServed = keyFile.seal('served-key');
    const fromDesktop = desktop.seal('desktop-key');
    expect(fromDesktop.toString('latin1')).not.toContain('desktop-key');
    expect(desktop.open(fromDesktop)).toBe('desktop-key');
    expect(desktop.open(fromServed)).toBe('served-key');
    expect(() => keyFile.open(fromDesktop)).toThrow(/desktop app's OS keychain/);
  });
});
