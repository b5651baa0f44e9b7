import type { Routing } from '../../../shared/events.js';
import { ServiceError } from '../../../shared/errors.js';
import type { AuthedContext } from '../context.js';
import { isoNow } from '../context.js';
import { newId } from '../ids.js';
import { chatModels, resolveModel, resolveOverride, type ResolvedModel } from '../models/catalog.js';
import { extractFeatures } from '../routing/features.js';
import { route } from '../routing/router.js';
import { assertDatasets, newThread, ownThread } from '../threads/handlers.js';
import { buildTurns } from './context.js';
import { generate } from './generate.js';
import { groundingFor } from './grounding.js';
import { agentDatasets } from '../agents/tools.js';
import { applyWorkflow, requestedWorkflow } from '../workflows/apply.js';

export interface ChatInput {
  thread_id?: string | undefined;
  message: string;
  dataset_ids?: string[] | undefined;
  agentic: boolean;
  model_endpoint_override?: string | undefined;
  workflow_id?: string | undefined;
}

export interface StartedChat {
  thread_id: string;
  user_message_id: string;
  message_id: string;
  routing: Routing;
}

/** A title from the first message: its first line, cut at a word near 60 characters. */
export function titleFrom(message: string): string {
  const line = message.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line || 'New chat';
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}

/** Override mode: the named model (or workspace endpoint override) answers; nothing is routed. */
function chooseOverride(ctx: AuthedContext, target: string): { candidates: ResolvedModel[]; routing: Routing } {
  const resolved = target.startsWith('ovr_') ? resolveOverride(ctx, target) : resolveModel(ctx, target);
  const via = resolved.override_id ? ` through the workspace endpoint override ${resolved.override_id}` : '';
  return {
    candidates: [resolved],
    routing: { mode: 'override', model_id: resolved.model.id, reason: `Requested: ${resolved.model.name}${via}; routing is off.`, skipped: [] },
  };
}

/** Dynamic mode: the router ranks every model; the next ones are fail-overs. */
function chooseDynamic(ctx: AuthedContext, input: ChatInput, history: { role: string; content: string }[], datasetCount: number) {
  const features = extractFeatures({ message: input.message, context: history, dataset_count: datasetCount, agentic: input.agentic });
  const candidates = chatModels(ctx);
  const decision = route(features, candidates, (id) => ctx.runtime.health.health(id), ctx.config().routing);
  return {
    candidates: decision.ranked.map((id) => resolveModel(ctx, id)),
    routing: { mode: 'dynamic' as const, model_id: decision.model_id, reason: decision.reason, skipped: [] },
  };
}

/**
 * Stores the user's message and an assistant message that is `streaming` from the first moment,
 * then starts generating in the background. Watching (streaming, waiting) is separate from this.
 */
export function startChat(ctx: AuthedContext, request: ChatInput): StartedChat {
  const { repos, runtime } = ctx;
  const workflow = requestedWorkflow(ctx, request.workflow_id);
  assertDatasets(ctx, request.dataset_ids);
  const thread = request.thread_id ? ownThread(ctx, request.thread_id) : newThread(ctx, { title: titleFrom(request.message) });
  const { input, systemPrompt } = applyWorkflow(ctx, thread, request, workflow);
  const datasetIds = input.dataset_ids ?? repos.threads.datasetIds(thread.id);
  const history = repos.messages.history(thread.id);
  const { candidates, routing } = input.model_endpoint_override
    ? chooseOverride(ctx, input.model_endpoint_override)
    : chooseDynamic(ctx, input, history, datasetIds.length);
  const first = candidates[0];
  if (!first) throw new ServiceError('unavailable', 'No model is available to answer.');

  const now = isoNow(ctx);
  const userMessageId = newId('msg');
  const messageId = newId('msg');
  repos.transaction(() => {
    repos.messages.insert({ id: userMessageId, thread_id: thread.id, role: 'user', content: input.message, status: 'complete', model_id: null, routing: null, now });
    repos.messages.insert({ id: messageId, thread_id: thread.id, role: 'assistant', content: '', status: 'streaming', model_id: first.model.id, routing: JSON.stringify(routing), now });
    repos.threads.touch(thread.id, now);
  });

  const turns = buildTurns(systemPrompt, [...history, { role: 'user', content: input.message }], first.model.capabilities.context_tokens);
  const ground = () => groundingFor(ctx, datasetIds, input.message);
  const limits = ctx.config().agents;
  const agent = input.agentic
    ? {
        question: input.message,
        env: { repos, embed: runtime.embedding()?.embed, datasets: agentDatasets(repos, datasetIds) },
        maxSteps: limits.max_steps,
        timeBudgetMs: limits.time_budget_seconds * 1000,
      }
    : undefined;
  const run = runtime.hub.start(messageId);
  run.emit({ event: 'message.created', data: { thread_id: thread.id, user_message_id: userMessageId, message_id: messageId, routing } });
  generate({ repos, runtime, now: ctx.now }, { messageId, userId: ctx.caller.user.id, candidates, routing, turns, datasetIds, ground, agent }, run).catch((error: unknown) => {
    // generate() stores every failure itself; reaching here means the store failed too.
    process.stderr.write(`chat generation for ${messageId} failed: ${String(error)}\n`);
    run.end();
  });
  return { thread_id: thread.id, user_message_id: userMessageId, message_id: messageId, routing };
}
