import type { Citation, Routing } from '../../../shared/events.js';
import type { ErrorCode } from '../../../shared/errors.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Runtime } from '../context.js';
import type { ResolvedModel } from '../models/catalog.js';
import type { ChatTurn } from '../providers/types.js';
import type { Grounding } from './grounding.js';
import { estimateTokens } from '../tokens.js';
import { AnswerFailed, answerWithFailover } from './failover.js';
import { messageView } from '../threads/views.js';
import type { AbortReason, RunHandle } from './hub.js';
import { newId } from '../ids.js';
import { citedOnly } from '../../../shared/citations.js';
import { runAgent } from '../agents/run.js';
import type { ToolEnv } from '../agents/tools.js';
import type { AgentEvent } from '../agents/types.js';
import type { McpAnswerLimits } from '../mcp/answer-tools.js';

export const INTERRUPTED = { code: 'unavailable' as const, detail: 'Parley stopped while this answer was being written; the text so far is kept.' };

/** Text is saved at least this often while it streams. */
export const FLUSH_INTERVAL_MS = 250;

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
}

interface Deps {
  repos: Repositories;
  runtime: Runtime;
  now: () => Date;
}

/**
 * Produces one assistant message: calls the candidates in order (failing over only before the first
 * token), streams events into the hub, saves the text every 250 ms, and stores the end whatever it
 * is: complete, error (partial text kept), cancelled, or interrupted by shutdown.
 */
export async function generate(deps: Deps, plan: GenerationPlan, run: RunHandle): Promise<void> {
  const { repos, runtime } = deps;
  const iso = () => deps.now().toISOString();
  let content = plan.prefix ?? '';
  let saved = content;
  // The stream rebuilds the whole message, so a continued answer's kept text comes first.
  if (content) run.emit({ event: 'delta', data: { content } });
  const citations: Citation[] = [];
  let usage: { input_tokens: number; output_tokens: number } | null = null;
  const routing: Routing = { ...plan.routing, skipped: [...plan.routing.skipped] };
  let failure: { code: ErrorCode; detail: string } | null = null;

  const flush = () => {
    if (content === saved) return;
    if (repos.db.open) repos.messages.flush(plan.messageId, content, iso());
    saved = content;
  };
  const timer = setInterval(flush, FLUSH_INTERVAL_MS);
  let stored = false;
  const store = (status: 'complete' | 'error' | 'cancelled' | 'interrupted', error: { code: ErrorCode; detail: string } | null) => {
    if (stored || !repos.db.open) return;
    stored = true;
    const counted = usage ?? { input_tokens: estimateTokens(plan.turns.map((t) => t.content).join('\n')), output_tokens: estimateTokens(content) };
    repos.messages.finish(plan.messageId, {
      content,
      status,
      // Only the passages the answer cites are its sources; the rest were searched, not used.
      citations: JSON.stringify(citedOnly(citations, content)),
      input_tokens: counted.input_tokens,
      output_tokens: counted.output_tokens,
      error_code: error?.code ?? null,
      error_detail: error?.detail ?? null,
      now: iso(),
    });
    const { input_tokens, output_tokens } = counted;
    repos.usage.record({ user_id: plan.userId, model_id: routing.model_id, source: 'chat', message_id: plan.messageId, input_tokens, output_tokens, created_at: iso() });
  };
  run.onShutdown(() => store('interrupted', INTERRUPTED));

  let step = 0;
  // Every thought of the call belongs to each dataset it draws on (deleting one deletes them all).
  const linked = plan.agent && repos.db.open ? repos.thoughts.linkCall(plan.messageId, plan.datasetIds) : 0;
  // Each step is stored as it happens, so an answer that fails or is cancelled keeps the steps it took.
  const think = (thought: Extract<AgentEvent, { type: 'thought' }>) => {
    const row = { id: newId('th'), message_id: plan.messageId, dataset_id: thought.dataset_id, step: ++step, kind: thought.kind, content: thought.content, created_at: iso() };
    // A dataset of the call was deleted while the agent ran: its thoughts went, later ones follow.
    if (repos.db.open && repos.thoughts.linkedCount(plan.messageId) === linked) {
      try {
        repos.thoughts.insert(row);
      } catch (error) {
        // Its dataset (or the thread) was deleted while the agent ran: the step goes with it.
        if (!(error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY')) throw error;
      }
    }
    run.emit({ event: 'thought', data: { id: row.id, kind: row.kind, content: row.content } });
  };

  try {
    const events: AsyncIterable<AgentEvent> = plan.agent
      ? runAgent(runtime, plan.candidates, {
          turns: plan.turns,
          question: plan.agent.question,
          env: plan.agent.env,
          limits: { maxSteps: plan.agent.maxSteps, deadline: performance.now() + plan.agent.timeBudgetMs, now: () => performance.now() },
          signal: run.signal,
          failOver: plan.routing.mode === 'dynamic',
          mcp: plan.agent.mcp,
        })
      : groundedAnswer(plan, runtime, run.signal);
    for await (const event of events) {
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
      } else if (event.type === 'delta') {
        content += event.text;
        run.emit({ event: 'delta', data: { content: event.text } });
      } else {
        usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
      }
    }
  } catch (error) {
    failure =
      error instanceof AnswerFailed
        ? { code: error.code, detail: error.message }
        : { code: 'internal', detail: `The answer could not be completed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearInterval(timer);
  }

  const reason = run.signal.aborted ? (run.signal.reason as AbortReason) : null;
  const status = reason === 'cancel' ? 'cancelled' : reason === 'shutdown' ? 'interrupted' : failure ? 'error' : 'complete';
  store(status, status === 'interrupted' ? INTERRUPTED : failure);
  if (repos.db.open) {
    if (routing.skipped.length) repos.messages.setModel(plan.messageId, routing.model_id, JSON.stringify(routing), iso());
    const row = repos.messages.get(plan.messageId);
    if (failure && status === 'error') run.emit({ event: 'error', data: { ...failure, message_id: plan.messageId } });
    else if (row) run.emit({ event: 'message.completed', data: { message: messageView(row, repos.thoughts.ofMessage(row.id)) } });
  }
  run.end();
}

/** A plain answer: the passages of the attached datasets first, then the model's text. */
async function* groundedAnswer(plan: GenerationPlan, runtime: Runtime, signal: AbortSignal): AsyncIterable<AgentEvent> {
  const grounding = await plan.ground();
  // The sources come first, so a reader sees what the answer draws on while it streams.
  for (const citation of grounding.citations) yield { type: 'citation', citation };
  yield* answerWithFailover(runtime, plan.candidates, {
    turns: plan.turns,
    passages: grounding.passages,
    hasDatasets: plan.datasetIds.length > 0,
    signal,
    failOver: plan.routing.mode === 'dynamic',
  });
}
