/**
 * One registry, two transports, the same answers: every operation is called with a valid input
 * (parity-fixtures.ts) over HTTP on a real port and over the IPC dispatcher the Electron main
 * registers (`registerIpc`, `registerStreams`, with Node's MessageChannel for the ports), both as
 * the owner. Both must succeed or fail alike (status ↔ ok, the same error code) and answer the
 * same shape of output, which the operation's output schema accepts.
 */
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../../shared/errors.js';
import { BODY_FIELD, MULTIPART_FILE_FIELD, operations, type Operation } from '../../shared/operations/index.js';
import { handlers, streamHandlers } from '../../main/core/service/handlers.js';
import { registerIpc } from '../../main/transport/ipc/index.js';
import { registerStreams } from '../../main/transport/ipc/stream-port.js';
import { buildHttpRequest } from '../../renderer/src/api/http-request.js';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { TEST_ADMIN_KEY, startTestHttp } from '../support/core.js';
import { FakeIpcMain, FakeIpcStreams } from '../support/fake-ipc.js';
import { readSse } from '../support/sse.js';
import { FIXTURES, type Fixture, type World } from './parity-fixtures.js';

/** Operations both transports carry (a file answer is HTTP only: parity-fixtures.ts). */
const ops = (Object.values(operations) as Operation[]).filter((op) => op.response !== 'file');
let h: Awaited<ReturnType<typeof startTestHttp>>;
let upstream: Upstream;
let world: World;
const ipcMain = new FakeIpcMain();
const ipcStreams = new FakeIpcStreams();
const disposers: Array<() => void> = [];

/** What one transport answered: success with a value, or an error code; streams as their events. */
type Answer = { ok: true; value: unknown } | { ok: false; code: string; detail: string };

/**
 * The structure of a JSON value: keys and value types, not the values (ids and times differ
 * between two calls). An array is the set of its items' shapes.
 */
function shape(value: unknown): unknown {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return { items: [...new Set(value.map((v) => JSON.stringify(shape(v))))].sort() };
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return typeof value;
}

/** The request a client sends for `input`, by the operation's body kind (multipart form, raw bytes or JSON). */
function httpRequestOf(op: Operation, input: unknown): { path: string; init: RequestInit } {
  const kind = op.body ?? 'json';
  if (kind === 'json') {
    const req = buildHttpRequest(op, input);
    return { path: req.path, init: { method: req.method, ...(req.body === undefined ? {} : { body: req.body, headers: { 'content-type': 'application/json' } }) } };
  }
  const fields = { ...(input as Record<string, unknown>) };
  const path = op.http.path.replace(/\{([a-z_]+)\}/g, (_, p: string) => {
    const value = encodeURIComponent(String(fields[p]));
    delete fields[p];
    return value;
  });
  const { [BODY_FIELD[kind]]: body, ...query } = fields;
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  if (kind === 'raw') return { path: `${path}?${qs}`, init: { method: op.http.method, body: new Uint8Array(body as Buffer), headers: { 'content-type': 'application/octet-stream' } } };
  const form = new FormData();
  for (const f of body as Array<{ filename: string; mime_type: string; bytes: Buffer }>) form.append(MULTIPART_FILE_FIELD, new Blob([new Uint8Array(f.bytes)], { type: f.mime_type }), f.filename);
  return { path: `${path}${qs ? `?${qs}` : ''}`, init: { method: op.http.method, body: form } };
}

async function overHttp(op: Operation, input: unknown): Promise<Answer & { status: number }> {
  const req = httpRequestOf(op, input);
  const streams = op.streaming?.mode === 'always';
  const res = await fetch(`${h.url}/api${req.path}`, {
    ...req.init,
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, ...(req.init.headers as Record<string, string> | undefined), ...(streams ? { accept: 'text/event-stream' } : {}) },
  });
  if (res.status >= 400) {
    const problem = (await res.json()) as { code: string; detail: string };
    return { status: res.status, ok: false, code: problem.code, detail: problem.detail };
  }
  if (streams) {
    const events: Array<{ event: string; data: unknown }> = [];
    for await (const e of readSse(res)) events.push({ event: e.event ?? 'message', data: JSON.parse(e.data) as unknown });
    return { status: res.status, ok: true, value: events };
  }
  const text = await res.text();
  return { status: res.status, ok: true, value: text ? (JSON.parse(text) as unknown) : null };
}

async function overIpc(op: Operation, input: unknown): Promise<Answer> {
  if (op.streaming?.mode === 'always') {
    const [answer] = ipcStreams.open({ stream_id: `parity-${op.name}`, operation: op.name, input });
    if (!answer) throw new Error('no port came back');
    await answer.done;
    answer.port.close();
    const last = answer.received.at(-1);
    if (last?.type === 'error') return { ok: false, code: last.error.code, detail: last.error.detail };
    const events = answer.received.flatMap((m) => (m.type === 'event' ? [m.event as { event: string; data: unknown }] : []));
    return { ok: true, value: events.map(({ event, data }) => ({ event, data })) };
  }
  const result = await ipcMain.call({ operation: op.name, input });
  if (!result.ok) return { ok: false, code: result.error.code, detail: result.error.detail };
  // What crosses to the renderer as JSON, so that `undefined` fields compare as HTTP drops them.
  return { ok: true, value: result.value === undefined ? null : (JSON.parse(JSON.stringify(result.value)) as unknown) };
}

beforeAll(async () => {
  upstream = await startUpstream();
  h = await startTestHttp();
  const owner = h.core.desktopCaller();
  const isTrustedUrl = (u: string) => u.startsWith('app://parley/');
  disposers.push(
    registerIpc({ ipcMain, service: h.core.service, desktopCaller: h.core.desktopCaller, isTrustedUrl, logError: () => {} }),
    registerStreams({
      ipcMain: ipcStreams,
      MessageChannelMain: MessageChannel,
      openStream: (operation, input, caller) => h.core.service.stream(operation, input, caller),
      desktopCaller: h.core.desktopCaller,
      isTrustedUrl,
      logError: () => {},
    }),
  );
  const invoke = async <T,>(operation: string, input: Record<string, unknown>) => (await h.core.service.invoke(operation, input, owner)) as T;
  const addFile = async (kbId: string, key: string, text: string) => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), key);
    const res = await h.api(`/knowledge-bases/${kbId}/artifacts`, { method: 'POST', body: form });
    if (res.status >= 300) throw new Error(`setup: adding ${key} answered ${res.status} ${await res.text()}`);
    await h.core.runtime.ingest.idle();
  };

  const member = await invoke<{ user: { id: string } }>('admin.users.create', { email: 'parity-member@example.com', name: 'Member', role: 'member' });
  const me = await invoke<{ workspace: { id: string } }>('identity.me', {});
  const dataset = await invoke<{ id: string; kb_id: string }>('datasets.create', { name: 'Parity notes' });
  await addFile(dataset.kb_id, 'tides.txt', 'The lighthouse keeper logs the tide at dawn; calm water and a northern wind.');
  const found = await invoke<{ data: Array<{ chunk_id: number }> }>('search.query', { query: 'lighthouse tide', dataset_ids: [dataset.id] });
  const sent = await invoke<{ thread_id: string; user_message_id: string; message: { id: string } }>('chat.send', { message: 'hello parity', model_endpoint_override: 'mdl_extractive' });
  const model = await invoke<{ id: string }>('models.create', { name: 'Echo', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'k', model: 'echo' });
  const cutOff = await invoke<{ id: string }>('models.create', { name: 'Breaks off', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'k', model: 'fail-mid:2' });
  const comparison = await invoke<{ id: string }>('comparisons.create', { prompt: 'compare parity', model_ids: ['mdl_extractive', model.id] });
  const report = await invoke<{ id: string }>('reports.create', { dataset_id: dataset.id });
  const workflow = await invoke<{ id: string }>('workflows.create', { name: 'Parity flow', system_prompt: 'Be brief.' });
  const upload = await invoke<{ upload_id: string }>('uploads.create', { kb_id: dataset.kb_id, files: [{ key: 'later.txt', filename: 'later.txt', size: 3 }] });
  const download = await invoke<{ id: string }>('models.downloads.create', { url: `${upstream.url}/files/world.gguf` });
  await h.core.runtime.downloads.idle();
  // Two saved versions at least, so that a rollback has one to go back to.
  const config = await invoke<{ toml: string; version: number }>('admin.config.get', {});
  await invoke('admin.config.put', { toml: config.toml, base_version: config.version });
  const chunk = found.data[0]?.chunk_id;
  if (chunk === undefined) throw new Error('setup: the search found no passage');

  world = {
    core: h.core,
    upstream,
    invoke,
    addFile,
    ids: {
      workspace: me.workspace.id,
      member: member.user.id,
      dataset: dataset.id,
      kb: dataset.kb_id,
      artifactKey: 'tides.txt',
      chunk,
      thread: sent.thread_id,
      userMessage: sent.user_message_id,
      answer: sent.message.id,
      model: model.id,
      cutOffModel: cutOff.id,
      comparison: comparison.id,
      report: report.id,
      workflow: workflow.id,
      upload: upload.upload_id,
      download: download.id,
    },
  };
}, 60_000);
afterAll(async () => {
  for (const dispose of disposers) dispose();
  await h?.close();
  await upstream?.close();
});

describe('one registry, two transports', () => {
  it('every operation has a parity fixture, and every fixture an operation', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(ops.map((op) => op.name).sort());
  });

  it.each(ops.map((op) => [op.name, op] as const))('%s answers the same over HTTP and IPC', async (name, op) => {
    expect(op.name).toBe(name);
    expect(typeof handlers[name as keyof typeof handlers]).toBe('function');
    if (op.streaming) expect(typeof streamHandlers[name as keyof typeof streamHandlers]).toBe('function');

    const fixture = (FIXTURES as Record<string, Fixture | undefined>)[name];
    if (!fixture) throw new Error(`${name} has no parity fixture: add one to test/contract/parity-fixtures.ts`);
    const http = await overHttp(op, await fixture.input(world));
    const ipc = await overIpc(op, await fixture.input(world));
    const said = `HTTP ${http.status} ${http.ok ? '' : `${http.code}: ${http.detail}`} / IPC ${ipc.ok ? 'ok' : `${ipc.code}: ${ipc.detail}`}`;

    const outcome = fixture.outcome ?? 'ok';
    if (outcome === 'ok') {
      expect(http.ok, said).toBe(true);
      expect(http.status, said).toBe(op.http.status);
    } else {
      expect(isErrorCode(outcome)).toBe(true);
      expect(http.ok ? 'ok' : http.code, said).toBe(outcome);
    }
    expect(ipc.ok ? 'ok' : ipc.code, said).toBe(http.ok ? 'ok' : http.code);
    if (!http.ok || !ipc.ok) return;

    expect(shape(ipc.value), said).toEqual(shape(http.value));
    if (op.streaming?.mode === 'always') {
      const events = http.value as Array<{ event: string; data: unknown }>;
      expect(events.length, said).toBeGreaterThan(0);
      expect((ipc.value as typeof events).map((e) => e.event)).toEqual(events.map((e) => e.event));
    } else if (op.http.status !== 204) {
      expect(op.output.safeParse(http.value).error, said).toBeUndefined();
      expect(op.output.safeParse(ipc.value).error, said).toBeUndefined();
    }
  });
});
