import type { Citation, Routing } from '../../../../shared/events.js';
import type { Repositories } from '../../../db/repositories/index.js';
import { newId } from '../../platform/ids.js';
import { messageView } from '../threads/views.js';
import {
  answerByteCap,
  answerEvents,
  answerSources,
  writeAnswer,
  type AgentEvent,
  type AnswerPlan,
  type AnswerStore,
  type FlushTimer,
  type FailoverRuntime,
  type RunHandle,
} from '../../answering/index.js';

/** One answer stored in a thread: what it is written from, and the message it is written into. */
export interface GenerationPlan extends AnswerPlan {
  messageId: string;
  userId: string;
  /** The text an answer that is continued already has: kept, sent first, and added to. */
  prefix?: string | undefined;
}

interface Deps {
  repos: Repositories;
  runtime: FailoverRuntime;
  now: () => Date;
  /** The periodic save's timer (tests drive it); real intervals by default. */
  flushTimer?: FlushTimer | undefined;
}

/**
 * Produces one assistant message: calls the candidates in order (failing over only before the first
 * token), streams events into the hub, and leaves writing the text (saved as it streams, its end and
 * usage in one transaction) to the one streamed-answer module. Settles the run; the caller ends it.
 */
export async function generate(deps: Deps, plan: GenerationPlan, run: RunHandle): Promise<void> {
  const { repos, runtime } = deps;
  const iso = () => deps.now().toISOString();
  // Timed with the injected clock, from the moment the answer is asked for: what a user waits.
  const started = deps.now().getTime();
  const elapsed = () => Math.max(0, deps.now().getTime() - started);
  let firstTokenMs: number | null = null;
  const prefix = plan.prefix ?? '';
  // The stream rebuilds the whole message, so a continued answer's kept text comes first.
  if (prefix) run.emit({ event: 'delta', data: { content: prefix } });
  const citations: Citation[] = [];
  // The text of each passage given to the model, by its number: what an answer without markers is matched against.
  const passageTexts = new Map<number, string>();
  let sources: Citation[] = [];
  const routing: Routing = { ...plan.routing, skipped: [...plan.routing.skipped] };

  let step = 0;
  // Every thought of the call belongs to each dataset it draws on (deleting one deletes them all).
  const linked = plan.agent ? repos.thoughts.linkCall(plan.messageId, plan.datasetIds) : 0;
  // Each step is stored as it happens, so an answer that fails or is cancelled keeps the steps it took.
  const think = (thought: Extract<AgentEvent, { type: 'thought' }>) => {
    const row = { id: newId('th'), message_id: plan.messageId, dataset_id: thought.dataset_id, step: ++step, kind: thought.kind, content: thought.content, created_at: iso() };
    // A dataset of the call was deleted while the agent ran: its thoughts went, later ones follow
    // (insert answers false when the thread or dataset went meanwhile).
    if (repos.thoughts.linkedCount(plan.messageId) === linked) repos.thoughts.insert(row);
    run.emit({ event: 'thought', data: { id: row.id, kind: row.kind, content: row.content } });
  };

  const events = answerEvents(runtime, plan, run.signal, passageTexts);

  const store: AnswerStore = {
    appendText: (text) => void repos.messages.append(plan.messageId, text, iso()),
    saveEnd: (end) => {
      sources = answerSources(plan, citations, passageTexts, end.content);
      repos.messages.finish(plan.messageId, {
        content: end.content,
        status: end.status,
        citations: sources,
        input_tokens: end.usage.input_tokens,
        output_tokens: end.usage.output_tokens,
        first_token_ms: firstTokenMs,
        latency_ms: elapsed(),
        error_code: end.failure?.code ?? null,
        error_detail: end.failure?.detail ?? null,
        now: iso(),
      });
      if (routing.skipped.length) repos.messages.setModel(plan.messageId, routing.model_id, routing, iso());
    },
    recordUsage: (usage) =>
      repos.usage.record({ user_id: plan.userId, model_id: routing.model_id, source: 'chat', message_id: plan.messageId, ...usage, created_at: iso() }),
  };
  const end = await writeAnswer(
    {
      store,
      transaction: repos.transaction,
      prompt: plan.turns.map((t) => t.content).join('\n'),
      prefix,
      timer: deps.flushTimer,
      maxBytes: answerByteCap(runtime.liveConfig.config().chat.max_answer_tokens),
    },
    events,
    run.signal,
    {
      onDelta: (text) => {
        firstTokenMs ??= elapsed();
        run.emit({ event: 'delta', data: { content: text } });
      },
      onEvent: (event) => {
        if (event.type === 'thought') {
          think(event);
        } else if (event.type === 'citation') {
          citations.push(event.citation);
          run.emit({ event: 'citation', data: event.citation });
        } else if (event.type === 'switch') {
          routing.model_id = event.model.model.id;
          routing.skipped = event.skipped;
          const names = event.skipped.map((s) => plan.candidates.find((c) => c.model.id === s.model_id)?.model.name ?? s.model_id);
          routing.reason = `${plan.routing.reason} ${names.join(', ')} could not answer, so ${event.model.model.name} did.`;
          repos.messages.setModel(plan.messageId, routing.model_id, routing, iso());
        }
      },
    },
  );
  // Attributed without a marker, a source was not streamed as cited: a client learns it before the end.
  for (const source of sources) if (source.attribution === 'overlap') run.emit({ event: 'citation', data: source });
  // A model that ran on past the ceiling answered fast and never failed: without this the router
  // would rank it first (low latency, no errors) and send it everyone's next question.
  if (end.failure?.code === 'answer_too_long') runtime.health.recordFailure(routing.model_id);
  const row = repos.messages.get(plan.messageId);
  if (end.status === 'error' && end.failure) run.emit({ event: 'error', data: { ...end.failure, message_id: plan.messageId } });
  else if (row) run.emit({ event: 'message.completed', data: { message: messageView(row, repos.thoughts.ofMessage(row.id)) } });
  // Stored and said: the caller ends the stream, after what may follow the answer (its thread's title).
  run.settle();
}
