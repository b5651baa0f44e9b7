import type { ErrorCode } from '../../../shared/errors.js';
import type { ComparisonEvent } from '../../../shared/operations/comparisons.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ResponseStatus } from '../../db/repositories/comparisons.js';
import { AnswerFailed, answerWithFailover } from '../chat/failover.js';
import { FLUSH_INTERVAL_MS, INTERRUPTED } from '../chat/generate.js';
import type { Grounding } from '../chat/grounding.js';
import type { AbortReason, RunHandle } from '../chat/hub.js';
import type { Runtime } from '../context.js';
import type { ResolvedModel } from '../models/catalog.js';
import type { ChatTurn } from '../providers/types.js';
import { estimateTokens } from '../tokens.js';
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
  runtime: Runtime;
  now: () => Date;
}

/** The state of one answer while it is written. */
interface Answer {
  responseId: string;
  model: ResolvedModel;
  turns: ChatTurn[];
  content: string;
  saved: string;
  firstTokenMs: number | null;
  usage: { input_tokens: number; output_tokens: number } | null;
  stored: boolean;
}

/**
 * Writes every answer of a comparison at once. Each model is called alone (no fail-over: the user
 * asked for that model), so one that fails ends only its own answer, as `error` with its partial
 * text; the others go on. Text is saved every 250 ms and at each answer's end, as chat answers are.
 */
export async function runComparison(deps: Deps, plan: ComparisonPlan, run: RunHandle<ComparisonEvent>): Promise<void> {
  const { repos, runtime } = deps;
  const iso = () => deps.now().toISOString();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const answers: Answer[] = plan.answers.map((a) => ({ ...a, content: '', saved: '', firstTokenMs: null, usage: null, stored: false }));

  const flush = () => {
    if (!repos.db.open) return;
    for (const a of answers) {
      if (a.stored || a.content === a.saved) continue;
      repos.comparisons.flush(a.responseId, a.content, iso());
      a.saved = a.content;
    }
  };
  const store = (a: Answer, status: Exclude<ResponseStatus, 'streaming'>, error: { code: ErrorCode; detail: string } | null) => {
    if (a.stored || !repos.db.open) return;
    a.stored = true;
    const counted = a.usage ?? { input_tokens: estimateTokens(a.turns.map((t) => t.content).join('\n')), output_tokens: estimateTokens(a.content) };
    repos.transaction(() => {
      repos.comparisons.finish(a.responseId, {
        content: a.content,
        status,
        latency_ms: elapsed(),
        first_token_ms: a.firstTokenMs,
        input_tokens: counted.input_tokens,
        output_tokens: counted.output_tokens,
        error_code: error?.code ?? null,
        error_detail: error?.detail ?? null,
        now: iso(),
      });
      repos.usage.record({ user_id: plan.userId, model_id: a.model.model.id, source: 'comparison', message_id: a.responseId, ...counted, created_at: iso() });
    });
  };
  run.onShutdown(() => {
    for (const a of answers) store(a, 'interrupted', INTERRUPTED);
  });
  const timer = setInterval(flush, FLUSH_INTERVAL_MS);

  let grounding: Grounding = { passages: [], citations: [] };
  try {
    grounding = await plan.ground();
    if (grounding.citations.length > 0 && repos.db.open) repos.comparisons.setCitations(plan.comparisonId, JSON.stringify(grounding.citations), iso());
  } catch (error) {
    // Without passages every model still answers; each says what it can.
    process.stderr.write(`comparison ${plan.comparisonId}: retrieval failed: ${String(error)}\n`);
  }

  const answerOne = async (a: Answer) => {
    let failure: { code: ErrorCode; detail: string } | null = null;
    try {
      const events = answerWithFailover(runtime, [a.model], {
        turns: a.turns,
        passages: grounding.passages,
        hasDatasets: plan.datasetIds.length > 0,
        signal: run.signal,
        failOver: false,
      });
      for await (const event of events) {
        if (event.type === 'delta') {
          if (a.firstTokenMs === null) {
            a.firstTokenMs = elapsed();
            if (repos.db.open) repos.comparisons.firstToken(a.responseId, a.firstTokenMs);
          }
          a.content += event.text;
          run.emit({ event: 'delta', data: { response_id: a.responseId, content: event.text } });
        } else if (event.type === 'usage') {
          a.usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
        }
      }
    } catch (error) {
      failure =
        error instanceof AnswerFailed
          ? { code: error.code, detail: error.message }
          : { code: 'internal', detail: `The answer could not be completed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const reason = run.signal.aborted ? (run.signal.reason as AbortReason) : null;
    const status = reason === 'cancel' ? 'cancelled' : reason === 'shutdown' ? 'interrupted' : failure ? 'error' : 'complete';
    store(a, status, status === 'interrupted' ? INTERRUPTED : status === 'cancelled' ? null : failure);
    const row = repos.db.open ? repos.comparisons.responses(plan.comparisonId).find((r) => r.id === a.responseId) : undefined;
    const comparison = repos.db.open ? repos.comparisons.get(plan.comparisonId) : undefined;
    if (row && comparison) {
      run.emit({ event: 'response.completed', data: { response_id: a.responseId, response: responseView(row, revealed(comparison, undefined)) } });
    }
  };

  try {
    await Promise.all(answers.map(answerOne));
  } finally {
    clearInterval(timer);
  }
  if (repos.db.open) {
    repos.comparisons.touch(plan.comparisonId, iso());
    const row = repos.comparisons.get(plan.comparisonId);
    if (row) run.emit({ event: 'comparison.completed', data: { comparison: comparisonView(row, repos.comparisons.responses(row.id), undefined) } });
  }
  run.end();
}
