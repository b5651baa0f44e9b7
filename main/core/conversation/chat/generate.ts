import type { Citation, Routing } from '../../../../shared/events.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { Runtime } from '../../platform/context.js';
import type { ResolvedModel } from '../../models/catalog/catalog.js';
import type { ChatTurn, Sampling } from '../../models/providers/types.js';
import type { Grounding } from '../../answering/grounding.js';
import { answerWithFailover } from '../../answering/failover.js';
import { messageView } from '../threads/views.js';
import type { RunHandle } from '../../answering/hub.js';
import { newId } from '../../platform/ids.js';
import { attributeCitations } from '../../answering/attribution.js';
import { runAgent } from '../agents/run.js';
import type { ToolEnv } from '../agents/tools.js';
import type { AgentEvent } from '../agents/types.js';
import type { McpAnswerLimits } from '../mcp/answer-tools.js';
import { answerByteCap, writeAnswer, type AnswerStore, type FlushTimer } from '../../answering/streamed-answer.js';

export interface GenerationPlan {
  messageId: string;
  userId: string;
  /** Models to try in order; the next one answers only if the previous failed before its first token. */
  candidates: ResolvedModel[];
  routing: Routing;
  turns: ChatTurn[];
  datasetIds: string[];
  /** Retrieval over the attached datasets: the passages to draw on and their citations. */
  ground: () => Promise<Grounding>;
  /** Set for `agentic: true`: an agent answers, with tools over the datasets, within these bounds. */
  agent?: { question: string; env: ToolEnv; maxSteps: number; timeBudgetMs: number; mcp?: McpAnswerLimits | undefined } | undefined;
  /** The text an answer that is continued already has: kept, sent first, and added to. */
  prefix?: string | undefined;
  /** The request's sampling, for plain answers and an agent's steps alike. */
  sampling?: Sampling | undefined;
}

interface Deps {
  repos: Repositories;
  runtime: Runtime;
  now: () => Date;
  /** The periodic save's timer (tests drive it); real intervals by default. */
  flushTimer?: FlushTimer | undefined;
}

/**
 * Produces one assistant message: calls the candidates in order (failing over only before the first
 * token), streams events into the hub, and leaves writing the text (saved as it streams, its end and
 * usage in one transaction) to the one streamed-answer module.
 */
export async function generate(deps: Deps, plan: GenerationPlan, run: RunHandle): Promise<void> {
  const { repos, runtime } = deps;
  const iso = () => deps.now().toISOString();
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
        citations: JSON.stringify(sources),
        input_tokens: end.usage.input_tokens,
        output_tokens: end.usage.output_tokens,
        error_code: end.failure?.code ?? null,
        error_detail: end.failure?.detail ?? null,
        now: iso(),
      });
      if (routing.skipped.length) repos.messages.setModel(plan.messageId, routing.model_id, JSON.stringify(routing), iso());
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
      onDelta: (text) => run.emit({ event: 'delta', data: { content: text } }),
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
          repos.messages.setModel(plan.messageId, routing.model_id, JSON.stringify(routing), iso());
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
  run.end();
}

/** What an answer is written from, whether it is stored in a thread or not (the `/v1` facade's grounded answers). */
export type AnswerPlan = Pick<GenerationPlan, 'candidates' | 'routing' | 'turns' | 'datasetIds' | 'ground' | 'agent' | 'sampling'>;

/**
 * The events an answer is written from: an agent's steps over the datasets (`agentic`), or the
 * passages of the datasets then the model's text. Fills `passageTexts` with the text of each
 * passage the model is given, by its number, for `answerSources`.
 */
export function answerEvents(runtime: Runtime, plan: AnswerPlan, signal: AbortSignal, passageTexts: Map<number, string>): AsyncIterable<AgentEvent> {
  return plan.agent
    ? runAgent(runtime, plan.candidates, {
        turns: plan.turns,
        question: plan.agent.question,
        env: plan.agent.env,
        limits: { maxSteps: plan.agent.maxSteps, deadline: performance.now() + plan.agent.timeBudgetMs, now: () => performance.now() },
        signal,
        failOver: plan.routing.mode === 'dynamic',
        mcp: plan.agent.mcp,
        sampling: plan.sampling,
      })
    : groundedAnswer(plan, runtime, signal, passageTexts);
}

/**
 * Only the passages the answer cites (or, citing none, draws on) are its sources; the rest were
 * searched, not used. A kept partial answer is attributed as far as it goes.
 */
export function answerSources(plan: AnswerPlan, citations: Citation[], passageTexts: Map<number, string>, content: string): Citation[] {
  return attributeCitations(
    citations.map((citation) => ({ citation, text: passageTexts.get(citation.index) ?? citation.snippet })),
    content,
    plan.agent?.question ?? plan.turns.findLast((t) => t.role === 'user')?.content,
  );
}

/** A plain answer: the passages of the attached datasets first, then the model's text. */
async function* groundedAnswer(plan: AnswerPlan, runtime: Runtime, signal: AbortSignal, passageTexts: Map<number, string>): AsyncIterable<AgentEvent> {
  const grounding = await plan.ground();
  for (const passage of grounding.passages) passageTexts.set(passage.index, passage.text);
  // The sources come first, so a reader sees what the answer draws on while it streams.
  for (const citation of grounding.citations) yield { type: 'citation', citation };
  yield* answerWithFailover(runtime, plan.candidates, {
    turns: plan.turns,
    passages: grounding.passages,
    hasDatasets: plan.datasetIds.length > 0,
    signal,
    failOver: plan.routing.mode === 'dynamic',
    sampling: plan.sampling,
  });
}
