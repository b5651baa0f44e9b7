import type { Routing } from '../../../../shared/events.js';
import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { chatModels, resolveModel, resolveOverride, type ResolveCtx, type ResolvedModel } from '../../models/catalog/catalog.js';
import { extractFeatures } from '../../models/routing/features.js';
import { route } from '../../models/routing/router.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { newThread, ownThread } from '../threads/access.js';
import { withOwnFiles } from '../threads/files.js';
import type { ChatInput } from './types.js';
import { generate } from './generate.js';
import { agentDatasets, buildTurns, groundingFor, type AgentPlan, type RunHandle } from '../../answering/index.js';
import { titleThread, type TitleDeps, type TitleJob } from './thread-title.js';
import { McpAnswerTools } from '../mcp/answer-tools.js';
import { retrievalEnv } from '../../knowledge/retrieval/retrieve.js';
import { applyWorkflow, requestedWorkflow } from '../workflows/apply.js';
import type { Workflow } from '../../../../shared/operations/workflows.js';
import type { BranchMessage, MessageRecord } from '../../../db/repositories/messages.js';
import type { ThreadRecord } from '../../../db/repositories/threads.js';
import { readBranch } from './branch.js';
import { stopList } from '../../../../shared/sampling.js';
import type { NewMessageImage } from '../../../db/repositories/message-images.js';
import { branchTurns, cannotReadImages, checkImages, dataUrl, noModelReadsImages, type ShownImage } from './images.js';
import { readsImages } from '../../models/catalog/vision.js';

/**
 * What starting a chat answer uses: the stores, the configuration, the clock, the caller's answer
 * slots, the models (resolved, routed by health, called), retrieval, MCP tools, and the live runs
 * that outlive the request.
 */
export type ChatCtx = AuthedSlice<
  'repos' | 'config' | 'now',
  'answerSlots' | 'hub' | 'lifecycle' | 'log' | 'local' | 'health' | 'secrets' | 'providers' | 'liveConfig' | 'embedding' | 'keywords' | 'mcp'
>;

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
export function chooseOverride(ctx: ResolveCtx, target: string): { candidates: ResolvedModel[]; routing: Routing } {
  const resolved = target.startsWith('ovr_') ? resolveOverride(ctx, target) : resolveModel(ctx, target);
  const via = resolved.override_id ? ` through the workspace endpoint override ${resolved.override_id}` : '';
  return {
    candidates: [resolved],
    routing: { mode: 'override', model_id: resolved.model.id, reason: `Requested: ${resolved.model.name}${via}; routing is off.`, skipped: [] },
  };
}

/**
 * Dynamic mode: the router ranks every model; the next ones are fail-overs. A message with images
 * is routed among the models that read them only (none: refused, 400).
 */
export function chooseDynamic(ctx: ResolveCtx, input: ChatInput, history: { role: string; content: string }[], datasetCount: number, withImages = false) {
  const features = extractFeatures({ message: input.message, context: history, dataset_count: datasetCount, agentic: input.agentic });
  const candidates = withImages ? chatModels(ctx).filter(readsImages) : chatModels(ctx);
  if (withImages && candidates.length === 0) throw noModelReadsImages();
  const decision = route(features, candidates, (id) => ctx.runtime.health.health(id), ctx.config().routing);
  const reason = withImages ? `The message has images: only models that read images were considered. ${decision.reason}` : decision.reason;
  return {
    candidates: decision.ranked.map((id) => resolveModel(ctx, id)),
    routing: { mode: 'dynamic' as const, model_id: decision.model_id, reason, skipped: [] },
  };
}

/** Refuses, before anything is stored, images that no model asked for can read. */
function assertImagesReadable(ctx: ResolveCtx, target: string | undefined): void {
  if (target === undefined) {
    if (!chatModels(ctx).some(readsImages)) throw noModelReadsImages();
    return;
  }
  const { model } = target.startsWith('ovr_') ? resolveOverride(ctx, target) : resolveModel(ctx, target);
  if (!readsImages(model)) throw cannotReadImages(model);
}

/** An agent over `datasetIds` answering `question`, within the configured bounds. */
export function agentFor(ctx: ContextSlice<'repos' | 'config', 'embedding' | 'log' | 'keywords' | 'mcp'>, question: string, datasetIds: string[]): AgentPlan {
  const limits = ctx.config().agents;
  const mcp = { maxCalls: ctx.config().mcp.max_calls_per_answer, maxBytes: ctx.config().mcp.max_result_bytes_per_answer };
  return {
    question,
    env: { ...retrievalEnv(ctx.repos, ctx.runtime), datasets: agentDatasets(ctx.repos, datasetIds) },
    maxSteps: limits.max_steps,
    timeBudgetMs: limits.time_budget_seconds * 1000,
    // The MCP servers' tools join Parley's own; none where no server can run.
    externalTools: (datasetId) => (ctx.runtime.mcp ? McpAnswerTools.open(ctx.runtime.mcp, mcp, datasetId) : Promise.resolve(null)),
  };
}

/** The message an answer responds to: one already stored, or a new one to store with the answer. */
export type Question = { kind: 'stored'; row: MessageRecord } | { kind: 'new'; parent_id: string | null };

/** What an answer continues from: the branch before its question, and maybe a partial answer to go on with. */
export interface AnswerSpec {
  thread: ThreadRecord;
  request: ChatInput;
  workflow: Workflow | null;
  /** The branch before the question, oldest first, as far back as a model could be shown (chat/branch.ts). */
  branch: BranchMessage[];
  question: Question;
  /** A new question's images, checked (chat/images.ts); a stored question's are read from the store. */
  images?: NewMessageImage[] | undefined;
  /** An ended, unfinished answer that the model goes on with, in place. */
  continued?: MessageRecord | undefined;
  /** How a continued answer records the model chosen (chat/branching.ts): it may keep its own routing. */
  routingFor?: ((chosen: Routing) => Routing) | undefined;
}

/** What the model is asked when it goes on with its own partial answer. */
export const CONTINUE_PROMPT = 'Your answer above was cut off. Continue it exactly where it stopped, without repeating any of it.';

/**
 * Stores the user's message and an assistant message that is `streaming` from the first moment,
 * then starts generating in the background. Watching (streaming, waiting) is separate from this.
 */
export function startChat(ctx: ChatCtx, request: ChatInput): StartedChat {
  const workflow = requestedWorkflow(ctx, request.workflow_id);
  assertDatasets(ctx, request.dataset_ids);
  const images = checkImages(request.images);
  if (images.length > 0) assertImagesReadable(ctx, request.model_endpoint_override);
  // Refused before a new thread is made for it (startAnswer takes the slot; nothing runs between).
  ctx.runtime.answerSlots.check(ctx.caller.user.id);
  const thread = request.thread_id ? ownThread(ctx, request.thread_id) : newThread(ctx, { title: titleFrom(request.message) }, 'first_message');
  // A new message follows the message asked for (the branch on the reader's screen), else the
  // thread's newest, whichever branch that is on.
  let parentId = ctx.repos.messages.newest(thread.id)?.id ?? null;
  if (request.parent_id !== undefined) {
    if (!request.thread_id || !ctx.repos.messages.inThread(request.parent_id, thread.id)) {
      throw new ServiceError('not_found', `No message ${request.parent_id} in this thread to follow.`);
    }
    parentId = request.parent_id;
  }
  const branch = readBranch(ctx, thread.id, parentId, request.model_endpoint_override);
  return startAnswer(ctx, { thread, request, workflow, branch, question: { kind: 'new', parent_id: parentId }, images });
}

/**
 * Chooses the model, stores the question (if new) and the answer, and starts generating; the
 * caller's answer slot is held until the answer ends, and refused (429) before anything is stored.
 */
export function startAnswer(ctx: ChatCtx, spec: AnswerSpec): StartedChat {
  const release = ctx.runtime.answerSlots.take(ctx.caller.user.id);
  try {
    return startHeld(ctx, spec, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** The images of the question being answered: a new one's, checked; a stored one's, from the store. */
function questionImages(ctx: ChatCtx, spec: AnswerSpec): ShownImage[] {
  if (spec.question.kind === 'new') return spec.images ?? [];
  const id = spec.question.row.id;
  return ctx.repos.messageImages.counts([id]).has(id) ? (ctx.repos.messageImages.dataByMessage([id]).get(id) ?? []) : [];
}

function startHeld(ctx: ChatCtx, spec: AnswerSpec, release: () => void): StartedChat {
  const { repos, runtime } = ctx;
  const { thread, continued } = spec;
  const { input, systemPrompt } = applyWorkflow(ctx, thread, spec.request, spec.workflow);
  // The thread's own files (attached in its composer) are drawn on whatever a message names.
  const datasetIds = input.dataset_ids ? withOwnFiles(ctx, thread.id, input.dataset_ids) : repos.threads.datasetIds(thread.id);
  const asked = questionImages(ctx, spec);
  const chosen = input.model_endpoint_override
    ? chooseOverride(ctx, input.model_endpoint_override)
    : chooseDynamic(ctx, input, spec.branch, datasetIds.length, asked.length > 0);
  const { candidates } = chosen;
  const first = candidates[0];
  if (!first) throw new ServiceError('unavailable', 'No model is available to answer.');
  if (asked.length > 0 && !readsImages(first.model)) throw cannotReadImages(first.model);
  // Earlier images go only to models that read them, fail-overs included; the others read `[image]`.
  const history = branchTurns(
    (ids) => repos.messageImages.dataByMessage(ids),
    (ids) => repos.messageImages.counts(ids),
    spec.branch,
    candidates.every((c) => readsImages(c.model)),
  );
  const routing = spec.routingFor ? spec.routingFor(chosen.routing) : chosen.routing;

  const now = isoNow(ctx);
  const userMessageId = spec.question.kind === 'stored' ? spec.question.row.id : newId('msg');
  const messageId = continued?.id ?? newId('msg');
  repos.transaction(() => {
    if (spec.question.kind === 'new') {
      repos.messages.insert({ id: userMessageId, thread_id: thread.id, parent_id: spec.question.parent_id, role: 'user', content: input.message, status: 'complete', model_id: null, routing: null, now });
      if (spec.images?.length) repos.messageImages.insert(userMessageId, spec.images, now);
    }
    if (continued) {
      if (!repos.messages.resume(continued.id, first.model.id, routing, now)) {
        throw new ServiceError('conflict', 'This answer is being written or is complete; only an answer that stopped early can be continued.');
      }
    } else {
      repos.messages.insert({ id: messageId, thread_id: thread.id, parent_id: userMessageId, role: 'assistant', content: '', status: 'streaming', model_id: first.model.id, routing, now });
    }
    repos.threads.touch(thread.id, now);
  });

  const going: Array<{ role: 'user' | 'assistant'; content: string }> = continued
    ? [
        { role: 'assistant', content: continued.content },
        { role: 'user', content: CONTINUE_PROMPT },
      ]
    : [];
  const question = { role: 'user' as const, content: input.message, ...(asked.length > 0 ? { images: asked.map(dataUrl) } : {}) };
  const turns = buildTurns(systemPrompt, [...history, question, ...going], first.model.capabilities.context_tokens);
  const ground = () => groundingFor(ctx, datasetIds, input.message);
  // An answer that is continued goes on as plain text: an agent would start its plan over.
  const agent = input.agentic && !continued ? agentFor(ctx, input.message, datasetIds) : undefined;
  const run = runtime.hub.start(messageId);
  run.emit({ event: 'message.created', data: { thread_id: thread.id, user_message_id: userMessageId, message_id: messageId, routing } });
  // Every request carries a ceiling: the caller's (else the thread's) when smaller, else `[chat] max_answer_tokens`.
  const ceiling = ctx.config().chat.max_answer_tokens;
  const maxTokens = Math.min(input.max_tokens ?? thread.max_tokens ?? ceiling, ceiling);
  // A request's own temperature wins over the chat's setting; neither set, the model's default holds.
  const sampling = { temperature: input.temperature ?? thread.temperature ?? undefined, top_p: input.top_p, max_tokens: maxTokens, stop: stopList(input.stop) };
  const plan = { messageId, userId: ctx.caller.user.id, candidates, routing, turns, datasetIds, ground, agent, prefix: continued?.content ?? '', sampling };
  const deps = { repos, runtime, now: ctx.now };
  // Only a thread Parley titled is named after its answer; the trial's quota counts model calls, so a trial's is named without one.
  const titling = thread.title_source === 'first_message' ? { threadId: thread.id, question: input.message, userId: ctx.caller.user.id, offline: ctx.caller.trialTokenId !== undefined } : null;
  // Tracked, so shutdown waits until the answer is stored (and its thread named).
  void runtime.lifecycle.track(
    generate(deps, plan, run)
      .catch((error: unknown) => {
        // generate() stores every failure itself; reaching here means the store failed too.
        runtime.log.error(`chat generation for ${messageId} failed`, error);
      })
      .finally(release)
      // The answer is done and said (`message.completed`) and its slot free: the title comes after.
      .then(() => (titling ? nameThread(deps, titling, messageId, candidates, run) : undefined))
      .catch((error: unknown) => runtime.log.error(`naming thread ${thread.id} failed`, error))
      .finally(() => run.end()),
  );
  return { thread_id: thread.id, user_message_id: userMessageId, message_id: messageId, routing };
}

/** Names the thread after the answer `messageId` when it completed (and is the thread's first: titleThread). */
async function nameThread(deps: TitleDeps, titling: Omit<TitleJob, 'messageId' | 'answer' | 'model'>, messageId: string, candidates: ResolvedModel[], run: RunHandle): Promise<void> {
  const answer = deps.repos.messages.get(messageId);
  const model = candidates.find((c) => c.model.id === answer?.model_id);
  if (answer?.status !== 'complete' || !model) return;
  await titleThread(deps, { ...titling, messageId, answer: answer.content, model }, run);
}
