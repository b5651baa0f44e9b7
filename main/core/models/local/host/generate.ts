import type { GbnfJsonSchema } from 'node-llama-cpp';
import { LocalModelError, type LocalEngine } from '../engine.js';
import type { AgentTurnEvent } from '../../../platform/ports/providers.js';
import { ProviderError } from '../../../platform/ports/providers.js';
import { localSampling } from './local-sampling.js';
import { contextTooSmall, fitHistory, isContextShiftFailure } from './llama-cpp-context.js';
import { anyCallSchema, callAnyHistory, callNowHistory, grammarSchema } from './llama-cpp-history.js';
import { errorText } from '../../../../../shared/errors.js';
import type { GenerateRequest } from './types.js';
import { Channel, mergeDeltas } from './channel.js';

/**
 * One answer written by the engine of this process: node-llama-cpp's LlamaChat on a sequence of
 * the shared model. Runs where the engine is — in the model's own process (host-process.ts), or
 * in the main process (in-process.ts). Text streams token by token; an abort stops generation at
 * the next token and frees the sequence.
 */

function providerError(error: unknown, contextSize: number | null): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof LocalModelError) return new ProviderError('unavailable', error.message);
  if (contextSize !== null && isContextShiftFailure(error)) return contextTooSmall(contextSize);
  return new ProviderError('upstream_error', `The local model failed: ${errorText(error)}`);
}

/** The longest string a forced tool call may hold: a search query, a file key. */
const CALL_STRING_CHARS = 200;
/** Tokens a forced call may take: its JSON with strings at their longest, and a margin. */
const CALL_TOKENS = 320;

/** Room kept for the answer when an agent's transcript is fitted into the context. */
function answerRoom(contextSize: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.max(256, Math.floor(contextSize / 4)));
}

/**
 * Runs one generation on a sequence of the shared model: deltas as they come, then usage; tool
 * calls (when functions are offered) once the model has finished asking for them.
 */
export async function* generateWith(engine: LocalEngine, request: GenerateRequest, signal: AbortSignal): AsyncIterable<AgentTurnEvent> {
  const { path, header, tools, agent } = request;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let slot;
  let contextSize: number | null = null;
  try {
    const { lib, llama } = await engine.probe();
    slot = await engine.acquire(path, header, stop.signal);
    const channel = new Channel<AgentTurnEvent>();
    const chat = new lib.LlamaChat({ contextSequence: slot.sequence, chatWrapper: slot.chatWrapper });
    const sequence = slot.sequence;
    contextSize = sequence.contextSize;
    const functions = tools.kind === 'choose' ? tools.functions : undefined;
    const forced = tools.kind === 'call' || tools.kind === 'call-any';
    // A forced call writes only its arguments (or its name and arguments): a short JSON object.
    const maxTokens = forced ? CALL_TOKENS * (tools.kind === 'call-any' ? 2 : 1) : (request.max_tokens ?? Math.max(256, Math.floor(contextSize * 0.75)));
    const callGrammar =
      tools.kind === 'call'
        ? await llama.createGrammarForJsonSchema<GbnfJsonSchema>(grammarSchema(tools.tool.parameters, CALL_STRING_CHARS))
        : tools.kind === 'call-any'
          ? await llama.createGrammarForJsonSchema<GbnfJsonSchema>(anyCallSchema(tools.tools, CALL_STRING_CHARS))
          : undefined;
    // `response_format`: the answer is held to JSON (or to the schema) by a grammar. node-llama-cpp
    // takes a grammar or functions, not both: with tools the model may call, the format is not enforced.
    const format = request.response_format;
    const formatGrammar =
      callGrammar || !format || functions
        ? undefined
        : format.type === 'json_object'
          ? await llama.getGrammarFor('json')
          : await llama.createGrammarForJsonSchema<GbnfJsonSchema>(grammarSchema(format.schema));
    const grammar = callGrammar ?? formatGrammar;
    const fit = { chatWrapper: slot.chatWrapper, tokenizer: sequence.model.tokenizer, functions };
    const size = contextSize;
    let history = tools.kind === 'call' ? callNowHistory(request.history, tools.tool) : tools.kind === 'call-any' ? callAnyHistory(request.history, tools.tools) : request.history;
    // An agent's transcript grows with every tool result: fitted here, and again if the answer outgrows the context.
    if (agent) history = fitHistory(history, { ...fit, budget: size - answerRoom(size, maxTokens) }, size);
    let written = '';
    const done = chat
      .generateResponse(history, {
        onTextChunk: (text) => {
          if (!text) return;
          if (callGrammar) written += text;
          else channel.push({ type: 'delta', text });
        },
        signal: stop.signal,
        stopOnAbortSignal: true,
        maxTokens,
        ...localSampling(request, header.sampling),
        ...(agent ? { contextShift: { strategy: ({ chatHistory, maxTokensCount }) => ({ chatHistory: fitHistory(chatHistory, { ...fit, budget: maxTokensCount }, size), metadata: null }) } } : {}),
        ...(grammar ? { grammar } : functions && Object.keys(functions).length > 0 ? { functions } : {}),
      })
      .then((result) => {
        if (callGrammar && forced) {
          let args: unknown;
          const what = tools.kind === 'call' ? tools.tool.name : 'a tool';
          try {
            args = callGrammar.parse(written);
          } catch {
            throw new ProviderError('upstream_error', `The local model did not finish its call of ${what} within ${maxTokens} tokens.`);
          }
          if (tools.kind === 'call') channel.push({ type: 'tool_call', call: { id: 'call_0', name: tools.tool.name, arguments: JSON.stringify(args) } });
          else {
            const call = args as { name: string; arguments: unknown };
            channel.push({ type: 'tool_call', call: { id: 'call_0', name: call.name, arguments: JSON.stringify(call.arguments ?? {}) } });
          }
        }
        // Only when functions were offered: `stream` relies on there being no tool call otherwise.
        for (const [i, call] of (functions ? (result.functionCalls ?? []) : []).entries()) {
          channel.push({ type: 'tool_call', call: { id: `call_${i}`, name: call.functionName, arguments: JSON.stringify(call.params ?? {}) } });
        }
        if (result.metadata.stopReason === 'maxTokens' && !callGrammar) channel.push({ type: 'finish', reason: 'length' });
        if (result.metadata.stopReason === 'customStopTrigger' && !callGrammar) {
          // Only the request's `stop` strings are custom triggers here; node-llama-cpp hands back the one that struck.
          const stop_sequence = result.metadata.customStopTrigger.filter((part): part is string => typeof part === 'string').join('');
          channel.push({ type: 'finish', reason: 'stop', stop_sequence });
        }
        channel.push({ type: 'usage', input_tokens: sequence.tokenMeter.usedInputTokens, output_tokens: sequence.tokenMeter.usedOutputTokens });
        channel.close();
      })
      .catch((error: unknown) => channel.close(stop.signal.aborted ? undefined : providerError(error, size)));
    try {
      // Tokens that piled up while the reader was busy go out as one delta: less work per token.
      yield* channel.drain(mergeDeltas);
    } finally {
      // The consumer stopped (cancel, client gone): stop at the next token, then free the sequence.
      stop.abort();
      await done;
      chat.dispose({ disposeSequence: false });
    }
  } catch (error) {
    if (signal.aborted) return;
    throw providerError(error, contextSize);
  } finally {
    signal.removeEventListener('abort', onAbort);
    slot?.release();
  }
}
