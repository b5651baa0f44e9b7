import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_INVOKE, IPC_UPLOAD_PART, type IpcResult } from '../../../shared/bridge.js';
import { registerIpc } from '../../../main/transport/ipc/index.js';
import { registerUploadParts, type UploadPartDeps } from '../../../main/transport/ipc/upload-part.js';
import { FakeIpcMain } from '../../support/fake-ipc.js';
import { bootTestCore } from '../../support/core.js';

const APP_PAGE = 'app://parley/index.html';
const isTrustedUrl = (url: string) => url.startsWith('app://parley/');

type Upload = { upload_id: string; files: Array<{ key: string; artifact_id: string; part_size: number; urls: Array<{ part: number; url: string; size: number }> }> };
type Artifact = { key: string; status: string; error: { code: string } | null };

function valueOf<T>(result: IpcResult): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.value as T;
}

/** ArrayBuffer of exactly these bytes, as the renderer's `Blob.arrayBuffer()` gives it. */
const arrayBufferOf = (bytes: Buffer): ArrayBuffer => Uint8Array.from(bytes).buffer;

describe('upload parts over IPC (the desktop, with or without the HTTP server)', () => {
  let core: ReturnType<typeof bootTestCore>;
  let ipcMain: FakeIpcMain;
  let logError: ReturnType<typeof vi.fn<UploadPartDeps['logError']>>;
  const disposers: Array<() => void> = [];

  beforeEach(() => {
    core = bootTestCore();
    ipcMain = new FakeIpcMain();
    logError = vi.fn<UploadPartDeps['logError']>();
    disposers.push(registerIpc({ ipcMain, service: core.service, desktopCaller: core.desktopCaller, isTrustedUrl, logError }));
    disposers.push(registerUploadParts({ ipcMain, service: core.service, isTrustedUrl, logError }));
  });
  afterEach(() => {
    for (const dispose of disposers.splice(0)) dispose();
    core.remove();
  });

  const call = async <T>(operation: string, input: unknown) => valueOf<T>(await ipcMain.call({ operation, input }));
  const sendPart = async (url: unknown, bytes: unknown, from: string | null = APP_PAGE): Promise<IpcResult> => {
    const handler = ipcMain.handlers.get(IPC_UPLOAD_PART);
    if (!handler) throw new Error('no upload-part handler');
    return (await handler({ senderFrame: from === null ? null : { url: from } }, url, bytes)) as IpcResult;
  };

  async function startUpload(text: string) {
    const dataset = await call<{ kb_id: string }>('datasets.create', { name: 'Notes' });
    const bytes = Buffer.from(text);
    const upload = await call<Upload>('uploads.create', { kb_id: dataset.kb_id, files: [{ key: 'notes.txt', filename: 'notes.txt', size: bytes.length }] });
    const file = upload.files[0];
    if (!file) throw new Error('no file in the upload');
    return { dataset, bytes, upload, file };
  }

  /** The artifact once the ingest queue has nothing left to do. */
  async function settled(kbId: string, key: string): Promise<Artifact> {
    await core.runtime.ingest.idle();
    return call<Artifact>('artifacts.get', { kb_id: kbId, key });
  }

  it('hands out relative part URLs when no HTTP server runs, and a file sent through them becomes ready', async () => {
    expect(core.runtime.baseUrl()).toBeNull();
    const { dataset, bytes, upload, file } = await startUpload('The keeper logs the tide at dawn. '.repeat(50));
    expect(file.urls[0]?.url).toMatch(/^\/api\/uploads\/upl_/);

    for (const part of file.urls) {
      const slice = bytes.subarray((part.part - 1) * file.part_size, part.part * file.part_size);
      expect(valueOf<{ part: number; received: number }>(await sendPart(part.url, arrayBufferOf(slice)))).toMatchObject({ part: part.part, received: slice.length });
    }
    await call('uploads.complete', { upload_id: upload.upload_id });
    expect(await settled(dataset.kb_id, 'notes.txt')).toMatchObject({ status: 'ready', error: null });
    expect(logError).not.toHaveBeenCalled();
  });

  it('accepts a typed array as well as an ArrayBuffer (what structured cloning may deliver)', async () => {
    const { bytes, file } = await startUpload('short note');
    const url = file.urls[0]?.url ?? '';
    expect((await sendPart(url, new Uint8Array(bytes))).ok).toBe(true);
  });

  it('refuses a tampered signature, as the HTTP route does', async () => {
    const { bytes, file } = await startUpload('short note');
    const url = (file.urls[0]?.url ?? '').replace(/signature=[^&]+/, 'signature=AAAA');
    const result = await sendPart(url, arrayBufferOf(bytes));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('forbidden');
  });

  it('refuses bytes of another size than the part was signed for', async () => {
    const { file } = await startUpload('short note');
    const result = await sendPart(file.urls[0]?.url, arrayBufferOf(Buffer.from('a different, longer body than signed')));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('payload_too_large');
  });

  it.each([
    ['a number for the URL', 42, new ArrayBuffer(1)],
    ['a URL that is not a part URL', '/api/datasets', new ArrayBuffer(1)],
    ['a part URL without its signature', '/api/uploads/upl_a/parts/art_b/1?size=1&expires=9999999999', new ArrayBuffer(1)],
    ['text instead of bytes', '/api/uploads/upl_a/parts/art_b/1?size=1&expires=9999999999&signature=x', 'hello'],
  ])('refuses %s with invalid_argument', async (_label, url, bytes) => {
    const result = await sendPart(url, bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid_argument');
    expect(logError).not.toHaveBeenCalled();
  });

  it('refuses a frame that is not the app page', async () => {
    const { bytes, file } = await startUpload('short note');
    for (const from of ['https://example.com/', null]) {
      const result = await sendPart(file.urls[0]?.url, arrayBufferOf(bytes), from);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('forbidden');
    }
  });

  it('is removed by its disposer, leaving the invoke channel alone', () => {
    for (const dispose of disposers.splice(0)) dispose();
    expect(ipcMain.handlers.has(IPC_UPLOAD_PART)).toBe(false);
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(false);
  });
});
