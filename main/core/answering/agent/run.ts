import type { Runtime } from '../../platform/context.js';
import type { ResolvedModel } from '../../models/catalog/catalog.js';
import { overCandidates } from '../candidates.js';
import { coalesceDeltas } from '../coalesce.js';
import { withPassages } from '../grounding.js';
import { quoteSentences } from '../../models/providers/extractive-quotes.js';
import { questionOf } from '../../models/providers/extractive.js';
import type { ChatTurn, ProviderEvent, Sampling } from '../../platform/ports/providers.js';
import { nativeAgent, nativePlan } from './native.js';
import { plannedSteps } from './planner.js';
import { PassageBook, datasetOfCall, runTool, type ToolEnv } from './tools.js';
import type { AgentEvent, AgentLimits, ExternalTools, OpenExternalTools, Toolbox } from './types.js';

export interface AgentRequest {
  /** The conversation as the model sees it, the question last. */
  turns: ChatTurn[];
  question: string;
  env: ToolEnv;
  limits: AgentLimits;
  signal: AbortSignal;
  /** Try the next candidate when one fails before its first output (dynamic mode). */
  failOver: boolean;
  /** Opens the tools from outside Parley (MCP servers'), offered to tool-calling models only. */
  externalTools?: OpenExternalTools | undefined;
  /** The request's sampling, for every step of a tool-calling model; unset fields take its defaults. */
  sampling?: Sampling | undefined;
}

/**
 * An agentic answer. A model with native tool calling (OpenAI-compatible, Anthropic) drives the
 * tools itself; any other (the offline extractive model) follows the deterministic plan — search,
 * read the best passages — and then answers from what was found. Either way each step is an event
 * as it happens. Candidates fail over as plain answers do: only before their first output.
 */
export async function* runAgent(runtime: Pick<Runtime, 'providers' | 'health'>, candidates: ResolvedModel[], request: AgentRequest): AsyncGenerator<AgentEvent> {
  const { env, limits, signal } = request;
  const book = new PassageBook();
  // MCP servers' tools, opened (and their servers started, lazily) for the first tool-calling model.
  let external: ExternalTools | null = null;
  const tools: Toolbox = {
    run: (name, args) => (external?.owns(name) ? external.run(name, args, signal) : runTool(env, book, name, args)),
    datasetOf: (name, args) => (external?.owns(name) ? external.datasetOf() : datasetOfCall(env, book, name, args)),
  };
  let planned = false;
  // The planned steps are Parley's, not the model's: a model that fails after them may still be replaced.
  let planning = false;
  const isOutput = (event: AgentEvent) => event.type !== 'usage' && !planning;
  yield* overCandidates(runtime.health, candidates, { failOver: request.failOver, signal, isOutput }, async function* (candidate): AsyncGenerator<AgentEvent> {
    const provider = runtime.providers[candidate.model.provider];
    const common = { model: candidate.model.model, endpoint_url: candidate.endpoint_url, api_key: candidate.api_key, signal, ...request.sampling };
    if (provider.agentTurn) {
      const turn = provider.agentTurn.bind(provider);
      if (!external && request.externalTools) external = await request.externalTools(env.datasets.length === 1 ? (env.datasets[0]?.id ?? null) : null);
      if (signal.aborted) return;
      const offered = external?.specs ?? [];
      const plan = nativePlan(env.datasets, limits.maxSteps, offered);
      yield* nativeAgent({ turn, request: common, turns: request.turns, datasets: env.datasets, tools, book, limits, plan, external: offered });
    } else {
      // The planned steps do not depend on the model: they run once, whoever answers after them.
      if (!planned) {
        planning = true;
        try {
          yield* plannedSteps(request.question, env.datasets, tools, limits, signal);
        } finally {
          planning = false;
        }
      }
      planned = true;
      if (signal.aborted) return;
      yield* plannedAnswer(candidate, request.turns, book, env.datasets.length > 0, provider.stream.bind(provider), signal);
    }
  });
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
  yield* coalesceDeltas<ProviderEvent>(events, signal);
}
