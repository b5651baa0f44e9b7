import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { PRIVATE_FILE_MODE } from './private-files.js';

/**
 * A 32-byte key kept in `file`, made on first use. Several processes may start on one data
 * directory together (the team server's instances): the key is written whole to a file of this
 * process's own, then linked into place, which fails if another process linked its key first — so
 * nobody ever reads a key half written, and everyone ends with the one that won.
 * `damaged(file)` says what to do about a file that is not a 32-byte key.
 */
export function readOrCreateKey(file: string, damaged: (file: string) => string): Buffer {
  try {
    const key = readFileSync(file);
    if (key.length !== 32) throw new Error(damaged(file));
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(own, key, { mode: PRIVATE_FILE_MODE });
  try {
    linkSync(own, file);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateKey(file, damaged);
    throw error;
  } finally {
    unlinkSync(own);
  }
}
