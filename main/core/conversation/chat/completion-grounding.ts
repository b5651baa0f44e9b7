import type { Citation } from '../../../../shared/events.js';
import { ServiceError } from '../../../../shared/errors.js';
import { imagesOf, textOf, type ChatCompletionRequest } from '../../../../shared/openai.js';
import type { ParleyCompletionOptions } from '../../../../shared/openai-parley.js';
import { AnswerFailed, answerEvents, answerSources, buildTurns, groundingFor, type AnswerPlan } from '../../answering/index.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { chatModelNamed, resolveModel, type ResolvedModel } from '../../models/catalog/catalog.js';
import { completionSampling, metered, type CompletionEvent } from './completion-meter.js';
import { agentFor, chooseDynamic, chooseOverride, startChat, type ChatCtx } from './send.js';
import type { ChatInput } from './types.js';

/**
 * `/v1/chat/completions` with Parley's `parley: { dataset_ids, agentic?, thread_id? }`: the answer is
 * grounded exactly as the app's own chat grounds it (same routing with datasets, retrieval, agent
 * and attribution) and ends with the sources it cites. With `thread_id` it IS the app's chat
 * (`startChat`): the question and the answer are stored in that thread and show in the app; without
 * it nothing is stored but usage, as for any `/v1` answer.
 */

export type { CitationsEvent } from './completion-meter.js';
export type GroundedEvent = CompletionEvent;

export interface GroundedCompletion {
  model: ResolvedModel;
  events: AsyncIterable<GroundedEvent>;
}

interface Conversation {
  system: string | null;
  /** User and assistant turns before the question, oldest first. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  question: string;
}

/** The request's messages as the app's chat sees a thread: a system prompt, the turns before the question, the question. */
function conversation(request: ChatCompletionRequest): Conversation {
  const lastUser = request.messages.findLastIndex((m) => m.role === 'user' && textOf(m.content).trim().length > 0);
  const question = lastUser < 0 ? '' : textOf(request.messages[lastUser]?.content);
  if (!question) throw new ServiceError('invalid_argument', 'messages must contain a user message with text.', [{ path: 'messages', message: 'no user message' }]);
  const before = request.messages.slice(0, lastUser);
  const system = before
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .filter(Boolean)
    .join('\n\n');
  const history = before.flatMap((m) => (m.role === 'user' || m.role === 'assistant' ? [{ role: m.role, content: textOf(m.content) }] : []));
  return { system: system || null, history, question };
}

/** What a grounded answer cannot honour is refused, rather than silently dropped. */
function refuseUngroundable(request: ChatCompletionRequest): void {
  const refuse = (param: string, what: string) => {
    throw new ServiceError('invalid_argument', `${what} cannot be combined with parley grounding: the answer is written as Parley's chat writes it.`, [{ path: param, message: 'not supported with parley' }]);
  };
  if (request.tools && request.tools.length > 0) refuse('tools', 'tools');
  if (request.response_format && request.response_format.type !== 'text') refuse('response_format', 'response_format');
  if (request.messages.some((m) => imagesOf(m.content).length > 0)) refuse('messages', 'Images');
}

/**
 * Starts a grounded answer. Everything that can be refused (datasets or thread the caller may not
 * read, an unknown model, a bad request) is thrown here, before any event, so a stream never opens
 * on an error.
 */
export function startGroundedCompletion(ctx: ChatCtx, request: ChatCompletionRequest, parley: ParleyCompletionOptions, signal: AbortSignal): GroundedCompletion {
  refuseUngroundable(request);
  if (request.model !== 'auto') chatModelNamed(ctx, request.model);
  const talk = conversation(request);
  return parley.thread_id ? inThread(ctx, request, parley, parley.thread_id, talk.question) : unstored(ctx, request, parley, talk, signal);
}

/** Not stored: the request's own messages are the conversation; the answer is written as the app's chat writes it. */
function unstored(ctx: ChatCtx, request: ChatCompletionRequest, parley: ParleyCompletionOptions, talk: Conversation, signal: AbortSignal): GroundedCompletion {
  const datasetIds = parley.dataset_ids ?? [];
  assertDatasets(ctx, datasetIds);
  const agentic = parley.agentic ?? false;
  const input: ChatInput = { message: talk.question, agentic };
  const { candidates, routing } = request.model === 'auto' ? chooseDynamic(ctx, input, talk.history, datasetIds.length) : chooseOverride(ctx, request.model);
  const first = candidates[0];
  if (!first) throw new ServiceError('unavailable', 'No model is available to answer.');
  const turns = buildTurns(talk.system, [...talk.history, { role: 'user', content: talk.question }], first.model.capabilities.context_tokens);
  const plan: AnswerPlan = {
    candidates,
    routing,
    turns,
    datasetIds,
    ground: () => groundingFor(ctx, datasetIds, talk.question),
    agent: agentic ? agentFor(ctx, talk.question, datasetIds) : undefined,
    sampling: completionSampling(ctx, request),
  };

  async function* events(): AsyncIterable<GroundedEvent> {
    let text = '';
    const citations: Citation[] = [];
    const passageTexts = new Map<number, string>();
    for await (const event of answerEvents(ctx.runtime, plan, signal, passageTexts)) {
      if (event.type === 'citation') citations.push(event.citation);
      else if (event.type !== 'thought') {
        if (event.type === 'delta') text += event.text;
        yield event;
      }
    }
    yield { type: 'citations', citations: answerSources(plan, citations, passageTexts, text) };
  }
  const prompt = turns.map((t) => t.content).join('\n');
  return { model: first, events: metered(ctx, { modelId: first.model.id, prompt, signal }, events()) };
}

/**
 * Stored in the caller's thread: the app's own chat answers (so the thread's history and system
 * prompt are the context, as in the app, and only the request's last user message is new), and
 * this follows its events. Like the app's answers it is written to the end even if the client goes.
 */
function inThread(ctx: ChatCtx, request: ChatCompletionRequest, parley: ParleyCompletionOptions, threadId: string, question: string): GroundedCompletion {
  const sampling = completionSampling(ctx, request);
  const input: ChatInput = {
    thread_id: threadId,
    message: question,
    dataset_ids: parley.dataset_ids,
    agentic: parley.agentic ?? false,
    model_endpoint_override: request.model === 'auto' ? undefined : request.model,
    temperature: sampling.temperature,
    top_p: sampling.top_p,
    max_tokens: sampling.max_tokens,
    stop: sampling.stop,
  };
  const started = startChat(ctx, input);
  const model = resolveModel(ctx, started.routing.model_id);

  async function* events(): AsyncIterable<GroundedEvent> {
    const live = ctx.runtime.hub.subscribe(started.message_id);
    if (!live) throw new ServiceError('internal', 'The answer ended before it could be followed.');
    for await (const event of live) {
      if (event.event === 'delta') {
        yield { type: 'delta', text: event.data.content };
      } else if (event.event === 'error') {
        throw new AnswerFailed(event.data.code, event.data.detail);
      } else if (event.event === 'message.completed') {
        const message = event.data.message;
        if (message.model_id && message.model_id !== model.model.id) {
          yield { type: 'switch', model: resolveModel(ctx, message.model_id), skipped: message.routing?.skipped ?? [] };
        }
        if (message.usage) yield { type: 'usage', ...message.usage };
        yield { type: 'citations', citations: message.citations };
        // The answer's end: what may follow it (the thread's new title) is not waited for.
        return;
      }
    }
  }
  return { model, events: events() };
}
