/**
 * One valid input per registry operation, for the parity test (parity.test.ts), which calls each
 * over HTTP and over IPC. Typed by the registry's names, so that an operation added without a
 * fixture fails the typecheck (and the test that compares the two lists fails the run).
 *
 * An input is made per call: operations that change things (delete, cancel, redeem) get a fresh
 * resource each time, so the second transport is not handed what the first one used up.
 */
import type { Core } from '../../main/boot.js';
import type { ErrorCode } from '../../shared/errors.js';
import type { Operations } from '../../shared/operations/index.js';
import { parsePartUrl } from '../../main/core/knowledge/uploads/part-url.js';
import { issueSignInCode } from '../../main/core/platform/auth/sign-in-code.js';
import type { Upstream } from '../fixtures/upstream.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** What the fixtures build on: resources made once, and a way to make fresh ones. */
export interface World {
  readonly core: Core;
  readonly upstream: Upstream;
  /** Calls the core as the owner, as setup; not what is under test. */
  invoke<T = Json>(operation: string, input: Json): Promise<T>;
  /** Posts a file into a knowledge base through the multipart route (`artifacts.upload`), as setup. */
  addFile(kbId: string, key: string, text: string): Promise<void>;
  readonly ids: {
    readonly workspace: string;
    readonly member: string;
    readonly dataset: string;
    readonly kb: string;
    readonly artifactKey: string;
    readonly chunk: number;
    readonly thread: string;
    readonly userMessage: string;
    readonly answer: string;
    /** A remote model answering through the test upstream (`echo`). */
    readonly model: string;
    /** A remote model whose answers break off after two words (`fail-mid:2`). */
    readonly cutOffModel: string;
    readonly comparison: string;
    readonly report: string;
    readonly workflow: string;
    readonly upload: string;
    readonly download: string;
  };
}

export interface Fixture {
  /** A valid input; called once per transport. */
  readonly input: (w: World) => Json | Promise<Json>;
  /** What both transports must answer: success, or this error (with why, in a comment). */
  readonly outcome?: 'ok' | ErrorCode;
}

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;
const none = () => ({});

/** A finished chat exchange of its own: its thread, the user's message and the answer. */
async function exchange(w: World, model = 'mdl_extractive') {
  const sent = await w.invoke<{ thread_id: string; user_message_id: string; message: { id: string } }>('chat.send', {
    message: unique('parity question'),
    model_endpoint_override: model,
  });
  return { thread: sent.thread_id, userMessage: sent.user_message_id, answer: sent.message.id };
}

/** A fresh dataset following a fresh temporary folder with one file (watched folders, issue 30). */
async function followedFolder(w: World): Promise<{ id: string; folder_id: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-parity-folder-'));
  writeFileSync(join(dir, 'note.txt'), 'parity folder words');
  const id = (await w.invoke<{ id: string }>('datasets.create', { name: unique('Folder dataset') })).id;
  return { id, folder_id: (await w.invoke<{ id: string }>('folders.create', { id, path: dir })).id };
}

async function configVersion(w: World): Promise<{ toml: string; version: number }> {
  return w.invoke('admin.config.get', {});
}

/**
 * The operations both transports carry: all but those answering a file, a stream IPC cannot carry
 * (main/transport/ipc/bodies.ts; artifact-files.test.ts covers them over HTTP).
 */
export type ParityName = { [K in keyof Operations]: Operations[K]['response'] extends 'file' ? never : K }[keyof Operations];

export const FIXTURES: Record<ParityName, Fixture> = {
  'service.health': { input: none },
  'service.version': { input: none },
  'service.ui': { input: none },
  'identity.me': { input: none },
  'apiKeys.create': { input: () => ({ name: unique('parity key') }) },
  'apiKeys.list': { input: none },
  'apiKeys.delete': { input: async (w) => ({ id: (await w.invoke<{ id: string }>('apiKeys.create', { name: unique('doomed key') })).id }) },
  'signInCodes.redeem': { input: (w) => ({ code: issueSignInCode(w.core.repos, w.core.owner.userId, new Date()).code }) },
  'admin.users.list': { input: none },
  'admin.users.create': { input: () => ({ email: `parity-${++counter}@example.com`, name: 'Parity', role: 'member' }) },
  'admin.users.update': { input: (w) => ({ id: w.ids.member, name: unique('Renamed') }) },
  'admin.userTokens.create': { input: () => ({ expires_in: 3600, quota: 5 }) },
  'admin.users.trial.end': { input: async (w) => ({ id: (await w.invoke<{ user: { id: string } }>('admin.userTokens.create', { expires_in: 3600 })).user.id }) },
  'admin.users.apiKeys.list': { input: (w) => ({ id: w.ids.member }) },
  'admin.users.apiKeys.create': { input: (w) => ({ id: w.ids.member, name: unique('their key') }) },
  'admin.users.apiKeys.delete': {
    input: async (w) => {
      const made = await w.invoke<{ id: string }>('admin.users.apiKeys.create', { id: w.ids.member, name: unique('their doomed key') });
      return { id: w.ids.member, key_id: made.id };
    },
  },
  'admin.config.get': { input: none },
  'admin.config.put': { input: async (w) => ({ toml: '[ui]\ncarousel = "vertical"\n', base_version: (await configVersion(w)).version }) },
  'admin.config.patch': { input: async (w) => ({ values: { 'ui.carousel': 'horizontal' }, base_version: (await configVersion(w)).version }) },
  'admin.config.history': { input: none },
  'admin.config.rollback': { input: async (w) => ({ version: (await configVersion(w)).version - 1 }) },
  'features.get': { input: none },
  'service.server': { input: none },
  'threads.create': { input: () => ({ title: unique('Parity thread') }) },
  'threads.list': { input: none },
  'threads.get': { input: (w) => ({ id: w.ids.thread }) },
  'threads.update': { input: (w) => ({ id: w.ids.thread, title: unique('Renamed thread') }) },
  'threads.delete': { input: async (w) => ({ id: (await w.invoke<{ id: string }>('threads.create', { title: unique('doomed thread') })).id }) },
  'threads.files': { input: (w) => ({ id: w.ids.thread }) },
  'threads.messages': { input: (w) => ({ id: w.ids.thread }) },
  'threads.suggestions': { input: (w) => ({ id: w.ids.thread }) },
  'chat.send': { input: (w) => ({ thread_id: w.ids.thread, message: unique('parity'), model_endpoint_override: 'mdl_extractive' }) },
  'chat.cancel': { input: async (w) => ({ message_id: (await exchange(w)).answer }) },
  'chat.stream': { input: (w) => ({ message_id: w.ids.answer }) },
  'chat.regenerate': { input: async (w) => ({ message_id: (await exchange(w)).answer, model_endpoint_override: 'mdl_extractive' }) },
  'chat.edit': { input: async (w) => ({ message_id: (await exchange(w)).userMessage, message: 'edited', model_endpoint_override: 'mdl_extractive' }) },
  // Only an answer that was cut off can be continued: the world's `cutOff` model breaks off mid-answer.
  'chat.continue': {
    input: async (w) => ({ message_id: (await exchange(w, w.ids.cutOffModel)).answer, model_endpoint_override: 'mdl_extractive' }),
  },
  'messages.thoughts': { input: (w) => ({ id: w.ids.answer }) },
  'messages.image_data': {
    input: async (w) => {
      // The test model reads images once it is marked so; a one-pixel PNG goes with a question.
      await w.invoke('models.update', { id: w.ids.model, capabilities: { vision: true } });
      const data = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      const images = [{ name: 'dot.png', media_type: 'image/png', data }];
      const sent = await w.invoke<{ thread_id: string; user_message_id: string }>('chat.send', { message: unique('parity image'), model_endpoint_override: w.ids.model, images });
      const page = await w.invoke<{ data: Array<{ id: string; images: Array<{ id: string }> }> }>('threads.messages', { id: sent.thread_id });
      const image = page.data.find((m) => m.id === sent.user_message_id)?.images[0];
      return { message_id: sent.user_message_id, image_id: image?.id ?? 'img_missing' };
    },
  },
  'models.list': { input: none },
  'models.create': { input: (w) => ({ name: unique('Parity model'), provider: 'openai_compatible', endpoint_url: w.upstream.openaiBaseUrl, api_key: 'k', model: 'echo' }) },
  'models.update': { input: (w) => ({ id: w.ids.model, name: unique('Renamed model') }) },
  'models.delete': {
    input: async (w) => ({
      id: (await w.invoke<{ id: string }>('models.create', { name: unique('doomed model'), provider: 'openai_compatible', endpoint_url: w.upstream.openaiBaseUrl, model: 'echo' })).id,
    }),
  },
  'models.test': { input: (w) => ({ id: w.ids.model }) },
  'models.probe': { input: (w) => ({ provider: 'openai_compatible', endpoint_url: w.upstream.openaiBaseUrl, api_key: 'k' }) },
  'models.catalog': { input: none },
  'search.embedding': { input: none },
  'models.downloads.create': { input: (w) => ({ url: `${w.upstream.url}/files/${++counter}.gguf` }) },
  // Downloads run in the background (and fail here: the upstream has no such file); listed once
  // they have settled, so that both calls see the same states.
  'models.downloads.list': {
    input: async (w) => {
      await w.core.runtime.downloads.idle();
      return {};
    },
  },
  'models.downloads.get': { input: (w) => ({ id: w.ids.download }) },
  'models.downloads.cancel': {
    input: async (w) => ({ id: (await w.invoke<{ id: string }>('models.downloads.create', { url: `${w.upstream.url}/files/${++counter}.gguf` })).id }),
  },
  'models.discovered': { input: none },
  // Loading is for local (llama.cpp) models; the world's model is remote: refused alike.
  'models.load': { input: (w) => ({ id: w.ids.model }), outcome: 'invalid_argument' },
  'models.unload': { input: (w) => ({ id: w.ids.model }), outcome: 'invalid_argument' },
  'overrides.list': { input: (w) => ({ workspace_id: w.ids.workspace }) },
  'overrides.put': { input: (w) => ({ workspace_id: w.ids.workspace, model_id: w.ids.model, endpoint_url: w.upstream.openaiBaseUrl, api_key: 'k' }) },
  'overrides.delete': {
    input: async (w) => {
      await w.invoke('overrides.put', { workspace_id: w.ids.workspace, model_id: w.ids.model, endpoint_url: w.upstream.openaiBaseUrl });
      return { workspace_id: w.ids.workspace, model_id: w.ids.model };
    },
  },
  'datasets.create': { input: () => ({ name: unique('Parity dataset') }) },
  'datasets.list': { input: none },
  'datasets.get': { input: (w) => ({ id: w.ids.dataset }) },
  'datasets.update': { input: (w) => ({ id: w.ids.dataset, description: unique('described') }) },
  'datasets.delete': { input: async (w) => ({ id: (await w.invoke<{ id: string }>('datasets.create', { name: unique('doomed dataset') })).id }) },
  'artifacts.list': { input: (w) => ({ kb_id: w.ids.kb }) },
  'artifacts.get': { input: (w) => ({ kb_id: w.ids.kb, key: w.ids.artifactKey }) },
  'artifacts.link': { input: (w) => ({ kb_id: w.ids.kb, key: w.ids.artifactKey }) },
  'artifacts.delete': {
    input: async (w) => {
      const key = `doomed-${++counter}.txt`;
      await w.addFile(w.ids.kb, key, 'a file to delete');
      return { kb_id: w.ids.kb, key };
    },
  },
  // Only a failed artifact can be retried: a file of blanks fails to ingest (no text to search).
  'artifacts.retry': {
    input: async (w) => {
      const key = `blank-${++counter}.txt`;
      await w.addFile(w.ids.kb, key, ' \n\n \n');
      return { kb_id: w.ids.kb, key };
    },
  },
  // Only a file being processed can be cancelled: a ready one is refused alike on both transports.
  'artifacts.cancel': { input: (w) => ({ kb_id: w.ids.kb, key: w.ids.artifactKey }), outcome: 'conflict' },
  'folders.create': {
    input: async (w) => ({ id: (await w.invoke<{ id: string }>('datasets.create', { name: unique('Folder dataset') })).id, path: mkdtempSync(join(tmpdir(), 'parley-parity-folder-')) }),
  },
  'folders.list': { input: async (w) => ({ id: (await followedFolder(w)).id }) },
  'folders.get': { input: followedFolder },
  'folders.update': { input: async (w) => ({ ...(await followedFolder(w)), status: 'paused' }) },
  'folders.delete': { input: followedFolder },
  'uploads.create': { input: (w) => ({ kb_id: w.ids.kb, files: [{ key: `upload-${++counter}.txt`, filename: 'u.txt', size: 3 }] }) },
  'uploads.get': { input: (w) => ({ upload_id: w.ids.upload }) },
  'uploads.limits': { input: none },
  // The body kinds: a form's files (multipart over HTTP) and a part's raw bytes, as each transport carries them.
  'artifacts.upload': { input: (w) => ({ kb_id: w.ids.kb, files: [{ filename: `form-${++counter}.txt`, mime_type: 'text/plain', bytes: Buffer.from('form words') }] }) },
  'uploads.part': {
    input: async (w) => {
      const made = await w.invoke<{ files: Array<{ urls: Array<{ url: string }> }> }>('uploads.create', { kb_id: w.ids.kb, files: [{ key: `part-${++counter}.txt`, filename: 'p.txt', size: 3 }] });
      const url = made.files[0]?.urls[0]?.url;
      if (!url) throw new Error('setup: the upload has no part URL');
      const { grant, signature } = parsePartUrl(url);
      return { ...grant, signature, body: Buffer.from('abc') };
    },
  },
  // Completes an upload whose one part has been sent, as a client does.
  'uploads.complete': {
    input: async (w) => {
      const made = await w.invoke<{ upload_id: string; files: Array<{ urls: Array<{ url: string }> }> }>('uploads.create', {
        kb_id: w.ids.kb,
        files: [{ key: `sent-${++counter}.txt`, filename: 's.txt', size: 3 }],
      });
      const url = made.files[0]?.urls[0]?.url;
      if (!url) throw new Error('setup: the upload has no part URL');
      const res = await fetch(url, { method: 'PUT', body: 'abc', headers: { 'content-type': 'application/octet-stream' } });
      if (res.status !== 200) throw new Error(`setup: the part answered ${res.status}`);
      return { upload_id: made.upload_id };
    },
  },
  'reports.create': { input: (w) => ({ dataset_id: w.ids.dataset }) },
  'reports.get': { input: (w) => ({ id: w.ids.report }) },
  'search.query': { input: (w) => ({ query: 'lighthouse tide', dataset_ids: [w.ids.dataset] }) },
  'suggestions.prompts': { input: none },
  'suggestions.datasets': { input: none },
  'comparisons.create': { input: (w) => ({ prompt: unique('compare'), model_ids: ['mdl_extractive', w.ids.model] }) },
  'comparisons.list': { input: none },
  'comparisons.leaderboard': { input: none },
  'comparisons.get': { input: (w) => ({ id: w.ids.comparison }) },
  'comparisons.stream': { input: (w) => ({ id: w.ids.comparison }) },
  'comparisons.cancel': {
    input: async (w) => ({ id: (await w.invoke<{ id: string }>('comparisons.create', { prompt: unique('doomed'), model_ids: ['mdl_extractive', w.ids.model] })).id }),
  },
  'comparisons.vote': {
    input: async (w) => ({ id: (await w.invoke<{ id: string }>('comparisons.create', { prompt: unique('vote on'), model_ids: ['mdl_extractive', w.ids.model] })).id, outcome: 'tie' }),
  },
  'admin.metrics': { input: none },
  'workflows.create': { input: () => ({ name: unique('Parity flow'), system_prompt: 'Be brief.' }) },
  'workflows.list': { input: none },
  'workflows.update': { input: (w) => ({ id: w.ids.workflow, description: unique('described') }) },
  'workflows.delete': { input: async (w) => ({ id: (await w.invoke<{ id: string }>('workflows.create', { name: unique('doomed flow'), system_prompt: 'x' })).id }) },
  'mcp.servers.list': { input: none },
  // No MCP server is configured in a fresh data directory: the name is unknown to both alike.
  'mcp.servers.connect': { input: () => ({ name: 'nothing' }), outcome: 'not_found' },
  'passages.get': { input: (w) => ({ chunk_id: w.ids.chunk }) },
  'passages.source': {
    input: async (w) => ({ artifact_id: (await w.invoke<{ id: string }>('artifacts.get', { kb_id: w.ids.kb, key: w.ids.artifactKey })).id, start: 0, end: 10 }),
  },
};
