import type { Citation, Routing } from '../../../shared/events.js';
import type { ResolvedModel } from '../models/catalog/catalog.js';
import type { ChatTurn, Sampling } from '../platform/ports/providers.js';
import type { Grounding } from './grounding.js';
import { answerWithFailover, type FailoverRuntime } from './failover.js';
import { attributeCitations } from './attribution.js';
import { runAgent } from './agent/run.js';
import type { ToolEnv } from './agent/tools.js';
import type { AgentEvent, OpenExternalTools } from './agent/types.js';

/** An agent over the datasets answering `question` with tools, within these bounds. */
export interface AgentPlan {
  question: string;
  env: ToolEnv;
  maxSteps: number;
  timeBudgetMs: number;
  /** Tools from outside Parley (MCP servers') offered beside Parley's own. */
  externalTools?: OpenExternalTools | undefined;
}

/** What an answer is written from, whether it is stored in a thread or not (the `/v1` facade's grounded answers). */
export interface AnswerPlan {
  /** Models to try in order; the next one answers only if the previous failed before its first token. */
  candidates: ResolvedModel[];
  routing: Routing;
  turns: ChatTurn[];
  datasetIds: string[];
  /** Retrieval over the attached datasets: the passages to draw on and their citations. */
  ground: () => Promise<Grounding>;
  /** Set for `agentic: true`: an agent answers, with tools over the datasets, within these bounds. */
  agent?: AgentPlan | undefined;
  /** The request's sampling, for plain answers and an agent's steps alike. */
  sampling?: Sampling | undefined;
}

/**
 * The events an answer is written from: an agent's steps over the datasets (`agentic`), or the
 * passages of the datasets then the model's text. Fills `passageTexts` with the text of each
 * passage the model is given, by its number, for `answerSources`.
 */
export function answerEvents(runtime: FailoverRuntime, plan: AnswerPlan, signal: AbortSignal, passageTexts: Map<number, string>): AsyncIterable<AgentEvent> {
  return plan.agent
    ? runAgent(runtime, plan.candidates, {
        turns: plan.turns,
        question: plan.agent.question,
        env: plan.agent.env,
        limits: { maxSteps: plan.agent.maxSteps, deadline: performance.now() + plan.agent.timeBudgetMs, now: () => performance.now() },
        signal,
        failOver: plan.routing.mode === 'dynamic',
        externalTools: plan.agent.externalTools,
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
async function* groundedAnswer(plan: AnswerPlan, runtime: FailoverRuntime, signal: AbortSignal, passageTexts: Map<number, string>): AsyncIterable<AgentEvent> {
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
