/**
 * What crosses IPC when a call fails: a full disk is the user's to fix and says so (507, as over
 * HTTP), where it used to reach the renderer as a bare `internal`; a file write's ENOSPC too.
 */
import { describe, expect, it } from 'vitest';
import { INTERNAL_DETAIL, toIpcError } from '../../../main/transport/ipc/error-payload.js';
import { StorageFullError } from '../../../main/db/errors.js';

describe('toIpcError', () => {
  it('answers a database write on a full disk as insufficient_storage, an expected failure', () => {
    const { payload, unexpected } = toIpcError(new StorageFullError(new Error('SQLITE_FULL')));
    expect(payload).toMatchObject({ code: 'insufficient_storage', status: 507 });
    expect(payload.detail).toMatch(/disk .* is full/);
    expect(unexpected).toBe(false);
  });

  it('answers a file write that hit ENOSPC the same way', () => {
    const error = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(toIpcError(error).payload).toMatchObject({ code: 'insufficient_storage', status: 507 });
  });

  it('keeps anything else internal, with a generic detail', () => {
    const { payload, unexpected } = toIpcError(new Error('/home/someone/secret path'));
    expect(payload).toMatchObject({ code: 'internal', status: 500, detail: INTERNAL_DETAIL });
    expect(unexpected).toBe(true);
  });
});
