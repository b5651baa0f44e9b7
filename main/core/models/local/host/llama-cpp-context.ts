import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, ChatWrapper, Tokenizer } from 'node-llama-cpp';
import { ProviderError } from '../../../platform/ports/providers.js';

/**
 * Fitting an agent's transcript into a local model's context. node-llama-cpp's own context shift
 * keeps the first system message and drops whole responses from the front; when the instructions,
 * the tool descriptions and one long tool result do not fit, it fails with "context shift strategy
 * did not return a history that fits". An agent's transcript is mostly tool results, and the
 * oldest matter least: those are cut first (their call stays, so the model knows what it asked),
 * then the oldest exchanges are dropped; the system message and the question are always kept.
 */

export interface ContextFit {
  chatWrapper: ChatWrapper;
  tokenizer: Tokenizer;
  functions: ChatModelFunctions | undefined;
  /** Tokens the history may take: the context less room for the answer. */
  budget: number;
}

/** What a cut tool result says in place of its text. */
const CUT = (chars: number) => `[Result cut to fit the model's context (${chars} characters); search again or read a passage if you need it.]`;
/** A result shortened rather than cut keeps its start: search results list the best passage first. */
const KEEP_CHARS = 600;

/** Tokens the history takes as the model would read it (node-llama-cpp's own measure). */
export function historyTokens(history: readonly ChatHistoryItem[], fit: Pick<ContextFit, 'chatWrapper' | 'tokenizer' | 'functions'>): number {
  const { contextText } = fit.chatWrapper.generateContextState({ chatHistory: history, availableFunctions: fit.functions, documentFunctionParams: true });
  return contextText.tokenize(fit.tokenizer).length;
}

function calls(item: ChatHistoryItem): ChatModelFunctionCall[] {
  return item.type === 'model' ? item.response.filter((r): r is ChatModelFunctionCall => typeof r === 'object' && r.type === 'functionCall') : [];
}

function resultText(call: ChatModelFunctionCall): string {
  return typeof call.result === 'string' ? call.result : JSON.stringify(call.result ?? '');
}

/** The plain sentence a person sees when the task cannot fit at all. */
export function contextTooSmall(contextSize: number): ProviderError {
  return new ProviderError(
    'unprocessable',
    `This model's context (${contextSize} tokens) cannot hold the agent's instructions, tools and question. Choose a model with a larger context, raise [local_models] context_size, or turn agentic mode off.`,
  );
}

/**
 * The history cut to `fit.budget` tokens. In order, until it fits: tool results shortened (oldest
 * first), earlier conversation before the question dropped (oldest first), tool results cut, the
 * oldest tool exchanges dropped. System messages, the question (the last user message before the
 * tool exchanges) and the open model turn always stay; `contextTooSmall` when even they do not fit.
 */
export function fitHistory(history: readonly ChatHistoryItem[], fit: ContextFit, contextSize: number): ChatHistoryItem[] {
  let items: ChatHistoryItem[] = history.map((item) => (item.type === 'model' ? { ...item, response: item.response.map((r) => (typeof r === 'object' && r.type === 'functionCall' ? { ...r } : r)) } : item));
  const fits = () => historyTokens(items, fit) <= fit.budget;
  if (fits()) return items;
  const results = items.flatMap(calls);
  const lengths = results.map((call) => resultText(call).length);
  const question = () => items.findLastIndex((i) => i.type === 'user');

  for (const call of results) {
    const text = resultText(call);
    if (text.length <= KEEP_CHARS) continue;
    call.result = `${text.slice(0, KEEP_CHARS)}… ${CUT(text.length)}`;
    if (fits()) return items;
  }
  for (let i = 0; i < question(); ) {
    if (items[i]!.type === 'system') {
      i++;
      continue;
    }
    items = items.toSpliced(i, 1);
    if (fits()) return items;
  }
  for (const [i, call] of results.entries()) {
    call.result = CUT(lengths[i]!);
    if (fits()) return items;
  }
  // The last item is the model turn being written; the ones between the question and it are tool exchanges.
  while (items.length - 1 > question() + 1) {
    items = items.toSpliced(question() + 1, 1);
    if (fits()) return items;
  }
  throw contextTooSmall(contextSize);
}

/** node-llama-cpp's own failure to fit, said as a person would understand it. */
export function isContextShiftFailure(error: unknown): boolean {
  return error instanceof Error && /did not return a history that fits|too small to fit the context shift/i.test(error.message);
}
