import type { ComparisonEvent } from '../../../../shared/operations/comparisons.js';
import type { Repositories } from '../../../db/repositories/index.js';
import {
  answerByteCap,
  answerWithFailover,
  writeAnswer,
  type AnswerStore,
  type AttemptEvent,
  type FlushTimer,
  type Grounding,
  type FailoverRuntime,
  type RunHandle,
} from '../../answering/index.js';
import type { Logger } from '../../platform/logger.js';
import type { ResolvedModel } from '../../models/catalog/catalog.js';
import type { ChatTurn } from '../../platform/ports/providers.js';
import { comparisonView, responseView, revealed } from './views.js';

export interface ComparisonPlan {
  comparisonId: string;
  userId: string;
  prompt: string;
  datasetIds: string[];
  /** One per answer, in the comparison's order. */
  answers: Array<{ responseId: string; model: ResolvedModel; turns: ChatTurn[] }>;
  ground: () => Promise<Grounding>;
}

interface Deps {
  repos: Repositories;
  runtime: FailoverRuntime;
  now: () => Date;
  log: Logger;
  flushTimer?: FlushTimer | undefined;
}

const NO_GROUNDING: Grounding = { passages: [], citations: [] };

/**
 * Writes every answer of a comparison at once. Each model is called alone (no fail-over: the user
 * asked for that model), so one that fails ends only its own answer, as `error` with its partial
 * text; the others go on. Each answer is written as a chat answer is (answers/streamed-answer.ts);
 * what is the comparison's own is the time to first token and the shared grounding.
 */
export async function runComparison(deps: Deps, plan: ComparisonPlan, run: RunHandle<ComparisonEvent>): Promise<void> {
  const { repos, runtime } = deps;
  const iso = () => deps.now().toISOString();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  // Retrieved once for every answer; without passages every model still answers what it can.
  const grounded = plan.ground().then(
    (grounding) => {
      if (grounding.citations.length > 0) repos.comparisons.setCitations(plan.comparisonId, grounding.citations, iso());
      return grounding;
    },
    (error: unknown) => {
      deps.log.warn(`comparison ${plan.comparisonId}: retrieval failed: ${String(error)}`);
      return NO_GROUNDING;
    },
  );

  // Every answer has the chat's ceiling: asked for in the request, enforced on the text.
  const maxTokens = runtime.liveConfig.config().chat.max_answer_tokens;
  const answerOne = async (a: ComparisonPlan['answers'][number]) => {
    let firstTokenMs: number | null = null;
    async function* events(): AsyncIterable<AttemptEvent> {
      const grounding = await grounded;
      yield* answerWithFailover(runtime, [a.model], { turns: a.turns, passages: grounding.passages, hasDatasets: plan.datasetIds.length > 0, signal: run.signal, failOver: false, sampling: { max_tokens: maxTokens } });
    }
    const store: AnswerStore = {
      appendText: (text) => void repos.comparisons.append(a.responseId, text, iso()),
      saveEnd: (end) =>
        repos.comparisons.finish(a.responseId, {
          content: end.content,
          status: end.status,
          latency_ms: elapsed(),
          first_token_ms: firstTokenMs,
          input_tokens: end.usage.input_tokens,
          output_tokens: end.usage.output_tokens,
          error_code: end.failure?.code ?? null,
          error_detail: end.failure?.detail ?? null,
          now: iso(),
        }),
      recordUsage: (usage) => repos.usage.record({ user_id: plan.userId, model_id: a.model.model.id, source: 'comparison', message_id: a.responseId, ...usage, created_at: iso() }),
    };
    await writeAnswer({ store, transaction: repos.transaction, prompt: a.turns.map((t) => t.content).join('\n'), timer: deps.flushTimer, maxBytes: answerByteCap(maxTokens) }, events(), run.signal, {
      onDelta: (text) => {
        if (firstTokenMs === null) {
          firstTokenMs = elapsed();
          repos.comparisons.firstToken(a.responseId, firstTokenMs);
        }
        run.emit({ event: 'delta', data: { response_id: a.responseId, content: text } });
      },
    });
    const row = repos.comparisons.responses(plan.comparisonId).find((r) => r.id === a.responseId);
    const comparison = repos.comparisons.get(plan.comparisonId);
    if (row && comparison) {
      run.emit({ event: 'response.completed', data: { response_id: a.responseId, response: responseView(row, revealed(comparison, undefined)) } });
    }
  };

  await Promise.all(plan.answers.map(answerOne));
  repos.comparisons.touch(plan.comparisonId, iso());
  const row = repos.comparisons.get(plan.comparisonId);
  if (row) run.emit({ event: 'comparison.completed', data: { comparison: comparisonView(row, repos.comparisons.responses(row.id), undefined) } });
  run.end();
}
