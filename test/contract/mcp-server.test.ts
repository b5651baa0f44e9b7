import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueApiKey } from '../../main/core/platform/auth/api-keys.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { databaseFor, onDatabaseOf } from '../support/test-storage.js';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';

/** The built stdio entry (`npm run build`), as an MCP client launches it. */
const MCP_ENTRY = fileURLToPath(new URL('../../dist/main/mcp.js', import.meta.url));

type Citation = { index: number; chunk_id?: number; dataset_id: string; artifact_key: string; snippet: string; location: Record<string, unknown> };

let h: Harness;
let village: { id: string; kb_id: string };
const clients: Client[] = [];

async function connect(token: string | null): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: 'contract-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** fetch() will not send a forged Host header, so this goes through node:http. */
function postWithHost(url: string, host: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** A user of another organization, with an API key: what a second team on the same machine would be. */
function outsider(): string {
  const now = new Date().toISOString();
  const repos = h.core.repos;
  repos.users.createOrganization({ id: 'org_Other1', name: 'Other', workspace_id: 'wsp_Other1', workspace_name: 'Other', now });
  repos.users.insert({ id: 'usr_Other1', organization_id: 'org_Other1', workspace_id: 'wsp_Other1', email: 'other@example.com', name: 'Other', role: 'member', now });
  return issueApiKey(repos, h.core.runtime.credentials, 'usr_Other1', 'mcp', now).key;
}

beforeAll(async () => {
  h = await startChatHarness();
  village = await h.dataset('Village', VILLAGE_DOCS);
}, 60_000);
afterAll(async () => {
  for (const client of clients) await client.close();
  await h.close();
});

describe('Parley as an MCP server over Streamable HTTP (/mcp)', () => {
  it('lists its tools to an SDK client with an API key', async () => {
    const client = await connect(TEST_ADMIN_KEY);
    expect(client.getServerVersion()).toMatchObject({ name: 'parley' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_datasets', 'search_datasets', 'read_passage', 'ask']);
    expect(tools.every((t) => t.outputSchema?.type === 'object')).toBe(true);
    expect(tools.find((t) => t.name === 'search_datasets')?.annotations?.readOnlyHint).toBe(true);
  });

  it('list_datasets, search_datasets and read_passage answer with citations as structured content', async () => {
    const client = await connect(TEST_ADMIN_KEY);
    const listed = await call(client, 'list_datasets', {});
    expect(listed.structuredContent).toMatchObject({ datasets: [{ id: village.id, name: 'Village', artifact_count: 3 }], next_cursor: null });
    expect(textOf(listed)).toBe(`Village (${village.id}): 3 files`);

    const found = await call(client, 'search_datasets', { query: 'when is the lighthouse lamp lit' });
    const { citations, mode } = found.structuredContent as { citations: Array<Citation & { chunk_id: number; dataset_name: string; score: number }>; mode: string };
    expect(mode).toBe('keyword');
    expect(citations[0]).toMatchObject({ index: 1, dataset_id: village.id, dataset_name: 'Village', artifact_key: 'lighthouse.md' });
    expect(citations[0]?.snippet).toMatch(/lamp is lit at dusk/);
    expect(textOf(found)).toMatch(new RegExp(`^\\[1\\] lighthouse\\.md \\(Lighthouse\\) in Village, chunk_id ${citations[0]?.chunk_id}: `));

    const read = await call(client, 'read_passage', { chunk_id: citations[0]?.chunk_id });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ citation: { dataset_id: village.id, artifact_key: 'lighthouse.md', chunk_id: citations[0]?.chunk_id }, text: expect.stringMatching(/keeper/) });
    expect(textOf(read)).toMatch(/^lighthouse\.md \(Lighthouse\), chunk_id \d+, with 0 neighbouring passages:\n\n.*keeper/s);

    const narrowed = await call(client, 'search_datasets', { query: 'sourdough', dataset_ids: [village.id], limit: 1 });
    expect((narrowed.structuredContent as { citations: Citation[] }).citations.map((c) => c.artifact_key)).toEqual(['bakery.md']);
  });

  it('ask answers through dynamic routing with citations, in a chat the user can open in the app', async () => {
    const client = await connect(TEST_ADMIN_KEY);
    const progress: string[] = [];
    const result = (await client.callTool({ name: 'ask', arguments: { question: 'When is the lighthouse lamp lit?', dataset_ids: [village.id] } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as { answer: string; status: string; thread_id: string; message_id: string; routing_reason: string; url: string; citations: Citation[] };
    expect(answer.status).toBe('complete');
    expect(answer.answer).toMatch(/dusk/);
    expect(answer.citations[0]).toMatchObject({ index: 1, dataset_id: village.id, artifact_key: 'lighthouse.md' });
    expect(answer.routing_reason).toBeTruthy();
    expect(answer.url).toBe(`${h.url}/#/chat/${answer.thread_id}`);
    expect(textOf(result)).toContain(`Sources:\n[1] lighthouse.md (Lighthouse)`);
    expect(progress[0]).toBe('Answering…');

    // The chat is the caller's own, stored like any other.
    // Named after its first answer (the built-in model's: the question's key phrase), once the answer was given.
    await vi.waitFor(async () => expect((await h.json<{ title: string }>(`/threads/${answer.thread_id}`, 'GET')).body.title).toBe('Lighthouse lamp lit'));
    const messages = await h.json<{ data: Array<{ id: string; role: string; content: string }> }>(`/threads/${answer.thread_id}/messages`, 'GET');
    expect(messages.body.data.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages.body.data[1]).toMatchObject({ id: answer.message_id, content: answer.answer });

    // agentic: the answer's steps are stored with it; thread_id continues the same chat.
    const again = await call(client, 'ask', { question: 'And who lights it?', dataset_ids: [village.id], agentic: true, thread_id: answer.thread_id });
    const second = again.structuredContent as { thread_id: string; message_id: string };
    expect(second.thread_id).toBe(answer.thread_id);
    expect((await h.json<{ data: unknown[] }>(`/messages/${second.message_id}/thoughts`, 'GET')).body.data.length).toBeGreaterThan(2);
  });

  it('a key of another organization sees only that organization’s datasets', async () => {
    const client = await connect(outsider());
    const listed = await call(client, 'list_datasets', {});
    expect(listed.structuredContent).toEqual({ datasets: [], next_cursor: null });
    const all = await call(client, 'search_datasets', { query: 'lighthouse' });
    expect(all.structuredContent).toEqual({ mode: 'keyword', citations: [] });
    const theirs = await call(client, 'search_datasets', { query: 'lighthouse', dataset_ids: [village.id] });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toBe(`not_found: No dataset ${village.id}.`);
    const owner = await connect(TEST_ADMIN_KEY);
    const chunk = ((await call(owner, 'search_datasets', { query: 'lighthouse' })).structuredContent as { citations: Array<{ chunk_id: number }> }).citations[0]?.chunk_id;
    const read = await call(client, 'read_passage', { chunk_id: chunk });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toBe(`not_found: No passage ${chunk}.`);
    const asked = await call(client, 'ask', { question: 'lamp?', dataset_ids: [village.id] });
    expect(textOf(asked)).toBe(`not_found: No dataset ${village.id}.`);
  });

  it('refuses a bad or missing key with 401, a foreign Host with 403, and GET (no sessions) with 405', async () => {
    await expect(connect('pk_NotARealKey0000000000')).rejects.toThrow(/401/);
    await expect(connect(null)).rejects.toThrow(/401/);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bad = await fetch(`${h.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer pk_NotARealKey0000000000' }, body: JSON.stringify(init) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await bad.json()) as { code: string }).code).toBe('unauthenticated');
    const rebinding = await postWithHost(`${h.url}/mcp`, 'evil.example', { ...headers, authorization: `Bearer ${TEST_ADMIN_KEY}` }, JSON.stringify(init));
    expect(rebinding.status).toBe(403);
    expect(rebinding.body).toMatch(/loopback host names/);
    const get = await fetch(`${h.url}/mcp`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${TEST_ADMIN_KEY}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('invalid tool arguments are a tool error the client can read, not a server failure', async () => {
    const client = await connect(TEST_ADMIN_KEY);
    const result = await call(client, 'search_datasets', { query: '' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/query/);
  });
});

describe('Parley as an MCP server over stdio (the built entry, as Claude Desktop or Cursor launch it)', () => {
  it('acts as the owner of the given API key', async () => {
    expect(existsSync(MCP_ENTRY), 'run `npm run build` first').toBe(true);
    const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_ENTRY, '--data-dir', h.core.dataDir], env: { PARLEY_API_KEY: TEST_ADMIN_KEY, ...onDatabaseOf(h.core.dataDir) }, stderr: 'pipe' });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_datasets', 'search_datasets', 'read_passage', 'ask']);
    const found = await call(client, 'search_datasets', { query: 'apple trees pruned' });
    expect((found.structuredContent as { citations: Citation[] }).citations[0]).toMatchObject({ dataset_id: village.id, artifact_key: 'orchard.md' });
    const asked = await call(client, 'ask', { question: 'How is sourdough made?', dataset_ids: [village.id] });
    const answer = asked.structuredContent as { thread_id: string; url: string | null; citations: Citation[] };
    expect(answer.url).toBeNull();
    expect(textOf(asked)).toContain(`It is saved in Parley as chat ${answer.thread_id}.`);
    // Written to the same database the app reads.
    expect((await h.json<{ id: string }>(`/threads/${answer.thread_id}`, 'GET')).status).toBe(200);
  }, 60_000);

  it('exits with a clear message when the key is refused', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_ENTRY, '--data-dir', h.core.dataDir, '--api-key', 'pk_NotARealKey0000000000'], ...(databaseFor(h.core.dataDir) ? { env: onDatabaseOf(h.core.dataDir) } : {}), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow();
    expect(stderr).toMatch(/The API key was refused: The bearer token is unknown or has been revoked\./);
  }, 30_000);
});
