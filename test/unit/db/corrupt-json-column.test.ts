/**
 * Issue 32, item 4: repositories decode what they store. A JSON column that no longer holds what
 * Parley wrote (a hand-edited database, flipped bytes) is read as a typed error naming the column,
 * or as a fallback where the value only informs — never as a raw SyntaxError in a reader.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../../../main/db/repositories/decode.js';
import { bootTestCore } from '../../support/core.js';

let core: ReturnType<typeof bootTestCore>;
beforeEach(() => {
  core = bootTestCore();
  const user = core.desktopCaller().user;
  const now = new Date().toISOString();
  core.repos.datasets.insert({ id: 'ds_c', kb_id: 'kb_c', organization_id: user.organization_id, owner_id: user.id, name: 'd', description: null, now });
  core.repos.folders.insert({ id: 'fld_c', dataset_id: 'ds_c', user_id: user.id, path: '/tmp/followed', include: ['**/*.md'], exclude: [], now });
  core.repos.folders.setScanned('fld_c', now, { count: 1, first: [{ path: 'big.bin', reason: 'too large' }] });
});
afterEach(() => core.remove());

describe('a corrupt JSON column', () => {
  it('reads back decoded when intact', () => {
    expect(core.repos.folders.get('fld_c')).toMatchObject({ include: ['**/*.md'], exclude: [], skipped: [{ path: 'big.bin', reason: 'too large' }] });
  });

  it('is a CorruptRecordError naming the column when a reader depends on it (the globs)', () => {
    core.db.prepare("UPDATE folders SET include = '[\"**/*.md\"' WHERE id = 'fld_c'").run();
    const read = () => core.repos.folders.get('fld_c');
    expect(read).toThrow(CorruptRecordError);
    expect(read).toThrow('folders.include of fld_c');
    expect(() => core.repos.folders.ofDataset('ds_c')).toThrow(CorruptRecordError);
  });

  it('is a CorruptRecordError when it parses but is not the stored shape', () => {
    core.db.prepare("UPDATE folders SET exclude = '{\"a\":1}' WHERE id = 'fld_c'").run();
    expect(() => core.repos.folders.get('fld_c')).toThrow(CorruptRecordError);
  });

  it('reads as empty where it only informs (the skipped files)', () => {
    core.db.prepare("UPDATE folders SET skipped = 'not json' WHERE id = 'fld_c'").run();
    expect(core.repos.folders.get('fld_c')).toMatchObject({ include: ['**/*.md'], skipped: [] });
  });
});
