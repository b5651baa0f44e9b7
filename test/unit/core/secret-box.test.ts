import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFileSecretBox } from '../../../main/core/secrets/secret-box.js';
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
