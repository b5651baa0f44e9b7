import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ServiceError, errorText } from '../../../shared/errors.js';
import type { Citation, Sequenced } from '../../../shared/events.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';

/** Where the app shows a thread, when it has a URL (the HTTP transport); null in a stdio process. */
export type ThreadLink = (threadId: string) => string | null;

export interface ParleyMcpOptions {
  service: Service;
  caller: Caller;
  version: string;
  threadLink: ThreadLink;
}

const DatasetIds = z.array(z.string().regex(/^ds_[A-Za-z0-9]+$/, 'must be a dataset id (ds_…)')).min(1).max(50);

const CitationOut = z.object({
  index: z.number().int(),
  chunk_id: z.number().int().optional(),
  dataset_id: z.string(),
  artifact_id: z.string(),
  artifact_key: z.string(),
  snippet: z.string(),
  location: z.record(z.string(), z.union([z.string(), z.number()])),
});

type Content = CallToolResult['content'];
const text = (value: string): Content => [{ type: 'text', text: value }];

/** A service failure as an MCP tool error the client (and its model) can read: `not_found: No dataset ds_x.` */
function failure(error: unknown): CallToolResult {
  if (error instanceof ServiceError) {
    const fields = error.errors?.length ? ` (${error.errors.map((e) => `${e.path || 'input'}: ${e.message}`).join('; ')})` : '';
    return { isError: true, content: text(`${error.code}: ${error.message}${fields}`) };
  }
  return { isError: true, content: text(`internal: ${errorText(error)}`) };
}

async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}

function where(location: Record<string, unknown>): string {
  const parts = [
    typeof location.page === 'number' ? `p. ${location.page}` : '',
    typeof location.section === 'string' ? location.section : '',
    typeof location.row_start === 'number' ? `rows ${location.row_start}–${String(location.row_end ?? location.row_start)}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * Parley's datasets as MCP tools, for one caller: every tool goes through the service exactly as
 * an HTTP or IPC request would (the caller's role, organization and quota apply; inputs are
 * validated by the registry's schemas), so this is a transport, not a second implementation.
 */
export function parleyMcpServer(options: ParleyMcpOptions): McpServer {
  const { service, caller } = options;
  const invoke = <T>(name: string, input: unknown) => service.invoke(name, input, caller) as Promise<T>;
  const server = new McpServer(
    { name: 'parley', title: 'Parley', version: options.version },
    {
      instructions:
        'Parley holds the user’s datasets (uploaded files, split into passages). list_datasets shows them; search_datasets finds passages (cite them by ' +
        'their [n]); read_passage reads one with its neighbours; ask has Parley answer a question itself, with citations, in a new chat the user can open in the app.',
    },
  );

  server.registerTool(
    'list_datasets',
    {
      title: 'List datasets',
      description: 'The datasets you can search in Parley: id, name, description and how many files each holds, newest first.',
      inputSchema: { limit: z.number().int().min(1).max(200).default(50).describe('How many (default 50).'), cursor: z.string().max(200).optional().describe('next_cursor of the previous page.') },
      outputSchema: {
        datasets: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), artifact_count: z.number().int(), created_at: z.string() })),
        next_cursor: z.string().nullable(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const page = await invoke<{ data: Array<{ id: string; name: string; description: string | null; artifact_count: number; created_at: string }>; next_cursor: string | null }>('datasets.list', args);
        const datasets = page.data.map((d) => ({ id: d.id, name: d.name, description: d.description, artifact_count: d.artifact_count, created_at: d.created_at }));
        const lines = datasets.map((d) => `${d.name} (${d.id}): ${d.artifact_count} file${d.artifact_count === 1 ? '' : 's'}${d.description ? ` — ${d.description}` : ''}`);
        const more = page.next_cursor ? `\nMore: call again with cursor ${page.next_cursor}.` : '';
        return { content: text(datasets.length > 0 ? `${lines.join('\n')}${more}` : 'No datasets yet.'), structuredContent: { datasets, next_cursor: page.next_cursor } };
      }),
  );

  server.registerTool(
    'search_datasets',
    {
      title: 'Search datasets',
      description:
        'Finds the passages of Parley datasets most relevant to a query (keywords or a question), best first, numbered [n] for citing. ' +
        'Searches every dataset you can read unless dataset_ids narrows it. read_passage reads a result with its context (by chunk_id).',
      inputSchema: {
        query: z.string().min(1).max(4000).describe('What to look for.'),
        dataset_ids: DatasetIds.optional().describe('Only these datasets (ids from list_datasets); when absent, the 50 newest you can read.'),
        limit: z.number().int().min(1).max(50).default(10).describe('How many passages (default 10).'),
        mode: z.enum(['auto', 'keyword', 'hybrid']).default('auto').describe('auto: hybrid when an embedding model is configured, keyword otherwise.'),
      },
      outputSchema: { mode: z.enum(['keyword', 'hybrid']), citations: z.array(CitationOut.extend({ score: z.number(), dataset_name: z.string() })) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const names = new Map<string, string>();
        let ids = args.dataset_ids;
        if (!ids) {
          const page = await invoke<{ data: Array<{ id: string; name: string }> }>('datasets.list', { limit: 50 });
          for (const d of page.data) names.set(d.id, d.name);
          ids = page.data.map((d) => d.id);
          if (ids.length === 0) return { content: text('There are no datasets to search yet.'), structuredContent: { mode: 'keyword', citations: [] } };
        }
        const found = await invoke<{ data: Array<{ chunk_id: number; dataset_id: string; artifact_id: string; artifact_key: string; score: number; snippet: string; location: Record<string, string | number> }>; mode: 'keyword' | 'hybrid' }>(
          'search.query',
          { query: args.query, dataset_ids: ids, limit: args.limit, mode: args.mode },
        );
        for (const id of new Set(found.data.map((h) => h.dataset_id))) {
          if (!names.has(id)) names.set(id, (await invoke<{ name: string }>('datasets.get', { id })).name);
        }
        const citations = found.data.map((h, i) => ({
          index: i + 1,
          chunk_id: h.chunk_id,
          dataset_id: h.dataset_id,
          dataset_name: names.get(h.dataset_id) ?? h.dataset_id,
          artifact_id: h.artifact_id,
          artifact_key: h.artifact_key,
          snippet: h.snippet,
          location: h.location,
          score: h.score,
        }));
        const lines = citations.map((c) => `[${c.index}] ${c.artifact_key}${where(c.location) ? ` (${where(c.location)})` : ''} in ${c.dataset_name}, chunk_id ${c.chunk_id}: ${c.snippet}`);
        return { content: text(lines.length > 0 ? lines.join('\n') : `No passage matched ${JSON.stringify(args.query)}.`), structuredContent: { mode: found.mode, citations } };
      }),
  );

  server.registerTool(
    'read_passage',
    {
      title: 'Read a passage',
      description: 'Reads a passage found by search_datasets (its chunk_id) in full, with the passages just before and after it in its file.',
      inputSchema: {
        chunk_id: z.number().int().min(1).describe('The chunk_id search_datasets gave.'),
        radius: z.number().int().min(0).max(5).default(1).describe('Neighbouring passages on each side (default 1).'),
      },
      outputSchema: {
        citation: CitationOut,
        text: z.string(),
        context: z.array(z.object({ chunk_id: z.number().int(), text: z.string(), is_passage: z.boolean() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(async () => {
        const p = await invoke<{ chunk_id: number; dataset_id: string; artifact_id: string; artifact_key: string; location: Record<string, string | number>; text: string; context: Array<{ chunk_id: number; text: string; is_passage: boolean }> }>(
          'passages.get',
          args,
        );
        const citation = { index: 1, chunk_id: p.chunk_id, dataset_id: p.dataset_id, artifact_id: p.artifact_id, artifact_key: p.artifact_key, snippet: p.text.slice(0, 240), location: p.location };
        const head = `${p.artifact_key}${where(p.location) ? ` (${where(p.location)})` : ''}, chunk_id ${p.chunk_id}, with ${p.context.length - 1} neighbouring passage${p.context.length === 2 ? '' : 's'}:`;
        return { content: text(`${head}\n\n${p.context.map((c) => c.text).join('\n\n')}`), structuredContent: { citation, text: p.text, context: p.context } };
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask Parley',
      description:
        'Has Parley answer a question: dynamic routing picks the model; with dataset_ids it answers from those datasets and cites the passages. ' +
        'The question and answer are saved as a chat the user can open in Parley (thread_id). agentic: true lets an agent search and read the datasets step by step.',
      inputSchema: {
        question: z.string().min(1).max(100_000).describe('The question, as the user would type it.'),
        dataset_ids: DatasetIds.optional().describe('Datasets to answer from (ids from list_datasets).'),
        agentic: z.boolean().default(false).describe('Let an agent plan, search and read before answering.'),
        thread_id: z.string().regex(/^thr_[A-Za-z0-9]+$/).optional().describe('Continue this chat (from an earlier ask) instead of starting one.'),
      },
      outputSchema: {
        answer: z.string(),
        status: z.string(),
        thread_id: z.string(),
        message_id: z.string(),
        model_id: z.string().nullable(),
        routing_reason: z.string().nullable(),
        url: z.string().nullable(),
        citations: z.array(CitationOut),
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    (args, extra) =>
      guarded(async () => {
        const input = { message: args.question, agentic: args.agentic, stream: true, ...(args.dataset_ids ? { dataset_ids: args.dataset_ids } : {}), ...(args.thread_id ? { thread_id: args.thread_id } : {}) };
        const events = service.stream('chat.send', input, caller);
        const progressToken = extra._meta?.progressToken;
        let progress = 0;
        const tell = (message: string) =>
          progressToken === undefined ? undefined : extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message } }).catch(() => undefined);
        let started: { thread_id: string; message_id: string } | null = null;
        const onAbort = () => {
          if (started) void service.invoke('chat.cancel', { message_id: started.message_id }, caller).catch(() => undefined);
        };
        extra.signal.addEventListener('abort', onAbort, { once: true });
        let answer = '';
        const citations: Citation[] = [];
        let end: { status: string; model_id: string | null; reason: string | null; error: string | null } = { status: 'error', model_id: null, reason: null, error: 'The answer ended without a result.' };
        try {
          for await (const event of events as AsyncIterable<Sequenced>) {
            const data = event.data as Record<string, unknown>;
            if (event.event === 'message.created') {
              started = { thread_id: String(data.thread_id), message_id: String(data.message_id) };
              await tell('Answering…');
            } else if (event.event === 'thought') await tell(`${String(data.kind)}: ${String(data.content).slice(0, 200)}`);
            else if (event.event === 'delta') answer += String(data.content);
            else if (event.event === 'citation') citations.push(data as unknown as Citation);
            else if (event.event === 'message.completed') {
              const message = data.message as { content: string; status: string; model_id: string | null; routing: { reason: string } | null; citations: Citation[] };
              answer = message.content;
              citations.splice(0, citations.length, ...message.citations);
              end = { status: message.status, model_id: message.model_id, reason: message.routing?.reason ?? null, error: null };
            } else if (event.event === 'error') end = { status: 'error', model_id: null, reason: null, error: `${String(data.code)}: ${String(data.detail)}` };
            // The answer's end: what may follow it (the thread's new title) is not waited for.
            if (event.event === 'message.completed' || event.event === 'error') break;
          }
        } finally {
          extra.signal.removeEventListener('abort', onAbort);
        }
        if (!started) throw new ServiceError('internal', 'The chat did not start.');
        const url = options.threadLink(started.thread_id);
        const sources = citations.map((c) => `[${c.index}] ${c.artifact_key}${where(c.location) ? ` (${where(c.location)})` : ''}`).join('\n');
        const open = url ? `Open it in Parley: ${url}` : `It is saved in Parley as chat ${started.thread_id}.`;
        const body = end.error ? `The answer failed (${end.error}).${answer ? `\nPartial answer:\n${answer}` : ''}` : answer;
        return {
          isError: end.error !== null,
          content: text(`${body}${sources ? `\n\nSources:\n${sources}` : ''}\n\n${open}`),
          structuredContent: {
            answer,
            status: end.status,
            thread_id: started.thread_id,
            message_id: started.message_id,
            model_id: end.model_id,
            routing_reason: end.reason,
            url,
            citations: citations.map((c) => ({ index: c.index, dataset_id: c.dataset_id, artifact_id: c.artifact_id, artifact_key: c.artifact_key, snippet: c.snippet, location: c.location })),
          },
        };
      }),
  );

  return server;
}
