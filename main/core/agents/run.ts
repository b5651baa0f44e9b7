import { QuotaExhausted } from '../auth/quota.js';
import { redactSecrets } from '../secrets/redact.js';
import type { ErrorCode } from '../../../shared/errors.js';
import type { Runtime } from '../context.js';
import type { ResolvedModel } from '../models/catalog.js';
import { type Skip } from '../chat/failover.js';
import { AnswerFailed } from '../answers/answer-failed.js';
import { untilAborted } from '../answers/until-aborted.js';
import { withPassages } from '../chat/grounding.js';
import { quoteSentences } from '../providers/extractive-quotes.js';
import { questionOf } from '../providers/extractive.js';
import { ProviderError, type ChatTurn, type ProviderEvent } from '../providers/types.js';
import { nativeAgent, nativePlan } from './native.js';
import { plannedSteps } from './planner.js';
import { PassageBook, datasetOfCall, runTool, type ToolEnv } from './tools.js';
import type { AgentEvent, AgentLimits, Toolbox } from './types.js';
import { McpAnswerTools, type McpAnswerLimits } from '../mcp/answer-tools.js';

export interface AgentRequest {
  /** The conversation as the model sees it, the question last. */
  turns: ChatTurn[];
  question: string;
  env: ToolEnv;
  limits: AgentLimits;
  signal: AbortSignal;
  /** Try the next candidate when one fails before its first output (dynamic mode). */
  failOver: boolean;
  /** What one answer may spend on MCP servers' tools (offered to tool-calling models only). */
  mcp?: McpAnswerLimits | undefined;
}

/** Thrown by an attempt; says whether the model had produced anything (then no other may take over). */
class AttemptFailed extends Error {
  constructor(
    readonly failure: unknown,
    readonly produced: boolean,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/** Runs `events`, noting the first output (anything but usage) and turning a failure into AttemptFailed. */
async function* attempt(events: AsyncIterable<AgentEvent>, onOutput: () => void): AsyncGenerator<AgentEvent> {
  let produced = false;
  try {
    for await (const event of events) {
      if (!produced && event.type !== 'usage') {
        produced = true;
        onOutput();
      }
      yield event;
    }
  } catch (error) {
    throw new AttemptFailed(error, produced);
  }
}

/**
 * An agentic answer. A model with native tool calling (OpenAI-compatible, Anthropic) drives the
 * tools itself; any other (the offline extractive model) follows the deterministic plan — search,
 * read the best passages — and then answers from what was found. Either way each step is an event
 * as it happens. Candidates fail over as plain answers do: only before their first output.
 */
export async function* runAgent(runtime: Runtime, candidates: ResolvedModel[], request: AgentRequest): AsyncGenerator<AgentEvent> {
  const { env, limits, signal } = request;
  const book = new PassageBook();
  // MCP servers' tools, opened (and their servers started, lazily) for the first tool-calling model.
  let external: McpAnswerTools | null = null;
  const tools: Toolbox = {
    run: (name, args) => (external?.owns(name) ? external.run(name, args, signal) : runTool(env, book, name, args)),
    datasetOf: (name, args) => (external?.owns(name) ? external.datasetOf() : datasetOfCall(env, book, name, args)),
  };
  const skipped: Skip[] = [];
  let planned = false;
  for (const [index, candidate] of candidates.entries()) {
    const last = index === candidates.length - 1 || !request.failOver;
    if (!last && !runtime.health.tryAcquire(candidate.model.id)) {
      skipped.push({ model_id: candidate.model.id, code: 'unavailable', detail: 'Skipped: it failed repeatedly and is cooling down.' });
      continue;
    }
    if (skipped.length > 0) yield { type: 'switch', model: candidate, skipped: [...skipped] };
    const provider = runtime.providers[candidate.model.provider];
    const started = performance.now();
    const succeeded = () => runtime.health.recordSuccess(candidate.model.id, performance.now() - started);
    const common = { model: candidate.model.model, endpoint_url: candidate.endpoint_url, api_key: candidate.api_key, signal };
    try {
      if (provider.agentTurn) {
        const turn = provider.agentTurn.bind(provider);
        if (!external && runtime.mcp && request.mcp) external = await McpAnswerTools.open(runtime.mcp, request.mcp, env.datasets.length === 1 ? (env.datasets[0]?.id ?? null) : null);
        if (signal.aborted) return;
        const offered = external?.specs ?? [];
        const plan = nativePlan(env.datasets, limits.maxSteps, offered);
        yield* attempt(nativeAgent({ turn, request: common, turns: request.turns, datasets: env.datasets, tools, book, limits, plan, external: offered }), succeeded);
      } else {
        // The planned steps do not depend on the model: they run once, whoever answers after them.
        if (!planned) yield* plannedSteps(request.question, env.datasets, tools, limits, signal);
        planned = true;
        if (signal.aborted) return;
        yield* attempt(plannedAnswer(candidate, request.turns, book, env.datasets.length > 0, provider.stream.bind(provider), signal), succeeded);
      }
      return;
    } catch (error) {
      const failure = error instanceof AttemptFailed ? error : new AttemptFailed(error, false);
      // A spent trial quota is the caller's limit, not the model's failure: no failover, no health mark.
      if (failure.failure instanceof QuotaExhausted) throw new AnswerFailed(failure.failure.code, failure.message);
      runtime.health.recordFailure(candidate.model.id);
      const code: ErrorCode = failure.failure instanceof ProviderError ? failure.failure.code : 'upstream_error';
      const detail = redactSecrets(failure.message, [candidate.api_key]);
      if (failure.produced || last) throw new AnswerFailed(code, detail);
      skipped.push({ model_id: candidate.model.id, code, detail });
    }
  }
}

/** After the planned steps: the `answer` step, then the model's answer from the passages found. */
async function* plannedAnswer(
  candidate: ResolvedModel,
  turns: ChatTurn[],
  book: PassageBook,
  hasDatasets: boolean,
  stream: (request: Parameters<Runtime['providers']['extractive']['stream']>[0]) => AsyncIterable<ProviderEvent>,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent> {
  const extractive = candidate.model.provider === 'extractive';
  // The extractive model quotes what the read steps returned (a passage with its neighbours), not
  // just the passage the search found.
  const passages = extractive ? book.passagesAsRead : book.passages;
  const refs = (indexes: number[]) => indexes.map((i) => `[${i}]`).join(', ');
  const quoted = extractive ? [...new Set(quoteSentences(questionOf(turns), passages).map((q) => q.index))] : [];
  const datasets = new Set(book.citations.filter((c) => (extractive ? quoted.includes(c.index) : true)).map((c) => c.dataset_id));
  const content = !hasDatasets
    ? 'Nothing to draw on: saying so.'
    : passages.length === 0
      ? 'Nothing relevant was found: saying so.'
      : extractive
        ? `Answer by quoting the sentences that hold the most of the question's terms, from ${quoted.length === 1 ? 'passage' : 'passages'} ${refs(quoted)}.`
        : `Answer with ${candidate.model.name} from the passages found: ${refs(passages.map((p) => p.index))}.`;
  yield { type: 'thought', kind: 'answer', content, dataset_id: datasets.size === 1 && passages.length > 0 ? ([...datasets][0] ?? null) : null };
  const events = stream({
    model: candidate.model.model,
    endpoint_url: candidate.endpoint_url,
    api_key: candidate.api_key,
    messages: passages.length > 0 && !extractive ? withPassages(turns, passages, candidate.model.capabilities.context_tokens) : turns,
    passages,
    has_datasets: hasDatasets,
    signal,
  });
  yield* untilAborted<ProviderEvent>(events, signal);
}
