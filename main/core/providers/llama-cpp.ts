import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, GbnfJsonSchema } from 'node-llama-cpp';
import { LocalModelError } from '../local-models/engine.js';
import type { LocalModels } from '../local-models/registry.js';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, ChatTurn, Provider, ProviderEvent, ProviderRequest, Sampling, ToolSpec } from './types.js';
import { localSampling } from './local-sampling.js';
import { contextTooSmall, fitHistory, isContextShiftFailure } from './llama-cpp-context.js';
import { ProviderError } from './types.js';
import { errorText } from '../../../shared/errors.js';

/**
 * Local GGUF models through llama.cpp (node-llama-cpp), in-process. The request's `endpoint_url`
 * is the GGUF file (model resolution puts it there). The chat template comes from the GGUF
 * (node-llama-cpp resolves it, e.g. ChatML, Llama 3, Qwen; a generic one when it cannot). Text
 * streams token by token; an abort stops generation at the next token and frees the sequence.
 */

/** Items pushed by callbacks, pulled by the async iterator. */
class Channel<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | null = null;
  private closed = false;
  private failure: unknown = null;

  push(item: T) {
    this.items.push(item);
    this.wake?.();
  }

  close(error?: unknown) {
    this.closed = true;
    if (error !== undefined) this.failure = error;
    this.wake?.();
  }

  /** Items in order; `merge` may fold an item into the one before it when both are waiting (a slow reader gets fewer, larger pieces). */
  async *drain(merge: (into: T, next: T) => T | null): AsyncIterable<T> {
    for (;;) {
      const first = this.items.shift();
      if (first !== undefined) {
        let item: T = first;
        for (let next = this.items[0]; next !== undefined; next = this.items[0]) {
          const merged = merge(item, next);
          if (merged === null) break;
          item = merged;
          this.items.shift();
        }
        yield item;
        continue;
      }
      if (this.closed) {
        if (this.failure !== null) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

function providerError(error: unknown, contextSize: number | null): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof LocalModelError) return new ProviderError('unavailable', error.message);
  if (contextSize !== null && isContextShiftFailure(error)) return contextTooSmall(contextSize);
  return new ProviderError('upstream_error', `The local model failed: ${errorText(error)}`);
}

function chatHistory(turns: ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((t) =>
    t.role === 'system' ? { type: 'system', text: t.content } : t.role === 'user' ? { type: 'user', text: t.content } : { type: 'model', response: [t.content] },
  );
  history.push({ type: 'model', response: [] });
  return history;
}

/** The agent transcript in node-llama-cpp's terms: tool calls and their results become function calls of the model's turn. */
function agentHistory(turns: AgentTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.role === 'tool') continue; // folded into the call that asked for it
    if (turn.role === 'assistant' && 'tool_calls' in turn) {
      const response: (string | ChatModelFunctionCall)[] = turn.content ? [turn.content] : [];
      for (const call of turn.tool_calls) {
        const result = turns.slice(i + 1).find((t) => t.role === 'tool' && t.tool_call_id === call.id);
        let params: unknown;
        try {
          params = JSON.parse(call.arguments);
        } catch {
          params = call.arguments;
        }
        response.push({ type: 'functionCall', name: call.name, params, result: result && 'content' in result ? result.content : '' });
      }
      history.push({ type: 'model', response });
      continue;
    }
    history.push(...chatHistory([turn]).slice(0, 1));
  }
  history.push({ type: 'model', response: [] });
  return history;
}

/**
 * JSON Schema → the subset node-llama-cpp turns into a grammar. Its objects make every listed
 * property required, so optional ones are left out (the tool then uses its default).
 */
function grammarSchema(schema: Record<string, unknown>): GbnfJsonSchema {
  const description = typeof schema.description === 'string' ? { description: schema.description } : {};
  switch (schema.type) {
    case 'string':
      return Array.isArray(schema.enum) ? { enum: schema.enum.filter((v): v is string => typeof v === 'string'), ...description } : { type: 'string', ...description };
    case 'integer':
      return { type: 'integer', ...description };
    case 'number':
      return { type: 'number', ...description };
    case 'boolean':
      return { type: 'boolean', ...description };
    case 'array':
      return { type: 'array', items: grammarSchema((schema.items ?? {}) as Record<string, unknown>), ...description };
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      return {
        type: 'object',
        properties: Object.fromEntries(Object.entries(properties).filter(([k]) => required.has(k)).map(([k, v]) => [k, grammarSchema(v)])),
        ...description,
      };
    }
  }
}

function functionsOf(tools: ToolSpec[]): ChatModelFunctions {
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: grammarSchema(t.parameters) }]));
}

/** What an agent turn may do with tools: nothing (plain chat, or `none`), choose among them, or call one now. */
type ToolUse = { kind: 'none' } | { kind: 'choose'; functions: ChatModelFunctions } | { kind: 'call'; tool: ToolSpec };

function toolUse(request: AgentTurnRequest): ToolUse {
  const choice = request.tool_choice;
  if (typeof choice === 'object') {
    const tool = request.tools.find((t) => t.name === choice.name);
    if (tool) return { kind: 'call', tool };
  }
  return choice === 'auto' && request.tools.length > 0 ? { kind: 'choose', functions: functionsOf(request.tools) } : { kind: 'none' };
}

/**
 * The history with an instruction to call `tool` now, its arguments as JSON. The grammar holds the
 * model to the tool's schema, so even a model that never learnt tool calling writes a valid call.
 */
function callNowHistory(history: ChatHistoryItem[], tool: ToolSpec): ChatHistoryItem[] {
  const instruction = `Call the tool ${tool.name} now: ${tool.description} Write only its arguments, as a JSON object.`;
  const first = history[0];
  if (first?.type === 'system' && typeof first.text === 'string') return [{ type: 'system', text: `${first.text}\n\n${instruction}` }, ...history.slice(1)];
  return [{ type: 'system', text: instruction }, ...history];
}

/** Room kept for the answer when an agent's transcript is fitted into the context. */
function answerRoom(contextSize: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.max(256, Math.floor(contextSize / 4)));
}

export function llamaCppProvider(local: LocalModels): Provider {
  /**
   * Runs one generation on a sequence of the shared model: deltas as they come, then usage; tool
   * calls (when functions are offered) once the model has finished asking for them.
   */
  async function* generate(
    request: Pick<ProviderRequest, 'endpoint_url' | 'signal'> & Sampling,
    given: ChatHistoryItem[],
    tools: ToolUse,
    agent: boolean,
  ): AsyncIterable<AgentTurnEvent> {
    const path = request.endpoint_url;
    const file = path ? local.byPath(path) : undefined;
    if (!path || !file) throw new ProviderError('unavailable', 'This local model’s file is gone (moved or deleted).');
    if (!file.header) throw new ProviderError('unavailable', file.error ?? 'This file is not a GGUF model.');
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    let slot;
    let contextSize: number | null = null;
    try {
      const { lib, llama } = await local.engine.probe();
      slot = await local.engine.acquire(path, file.header, stop.signal);
      const channel = new Channel<AgentTurnEvent>();
      const chat = new lib.LlamaChat({ contextSequence: slot.sequence, chatWrapper: slot.chatWrapper });
      const sequence = slot.sequence;
      contextSize = sequence.contextSize;
      const functions = tools.kind === 'choose' ? tools.functions : undefined;
      // A forced call writes only its arguments: a short JSON object.
      const maxTokens = tools.kind === 'call' ? 256 : (request.max_tokens ?? Math.max(256, Math.floor(contextSize * 0.75)));
      const grammar = tools.kind === 'call' ? await llama.createGrammarForJsonSchema<GbnfJsonSchema>(grammarSchema(tools.tool.parameters)) : undefined;
      const fit = { chatWrapper: slot.chatWrapper, tokenizer: sequence.model.tokenizer, functions };
      const size = contextSize;
      let history = tools.kind === 'call' ? callNowHistory(given, tools.tool) : given;
      // An agent's transcript grows with every tool result: fitted here, and again if the answer outgrows the context.
      if (agent) history = fitHistory(history, { ...fit, budget: size - answerRoom(size, maxTokens) }, size);
      let written = '';
      const done = chat
        .generateResponse(history, {
          onTextChunk: (text) => {
            if (!text) return;
            if (grammar) written += text;
            else channel.push({ type: 'delta', text });
          },
          signal: stop.signal,
          stopOnAbortSignal: true,
          maxTokens,
          ...localSampling(request, file.header.sampling),
          ...(agent ? { contextShift: { strategy: ({ chatHistory, maxTokensCount }) => ({ chatHistory: fitHistory(chatHistory, { ...fit, budget: maxTokensCount }, size), metadata: null }) } } : {}),
          ...(grammar ? { grammar } : functions && Object.keys(functions).length > 0 ? { functions } : {}),
        })
        .then((result) => {
          if (grammar && tools.kind === 'call') {
            channel.push({ type: 'tool_call', call: { id: 'call_0', name: tools.tool.name, arguments: JSON.stringify(grammar.parse(written)) } });
          }
          // Only when functions were offered: `stream` relies on there being no tool call otherwise.
          for (const [i, call] of (functions ? (result.functionCalls ?? []) : []).entries()) {
            channel.push({ type: 'tool_call', call: { id: `call_${i}`, name: call.functionName, arguments: JSON.stringify(call.params ?? {}) } });
          }
          if (result.metadata.stopReason === 'maxTokens' && !grammar) channel.push({ type: 'finish', reason: 'length' });
          channel.push({ type: 'usage', input_tokens: sequence.tokenMeter.usedInputTokens, output_tokens: sequence.tokenMeter.usedOutputTokens });
          channel.close();
        })
        .catch((error: unknown) => channel.close(stop.signal.aborted ? undefined : providerError(error, size)));
      try {
        // Tokens that piled up while the reader was busy go out as one delta: less work per token.
        yield* channel.drain((into, next) => (into.type === 'delta' && next.type === 'delta' ? { type: 'delta', text: into.text + next.text } : null));
      } finally {
        // The consumer stopped (cancel, client gone): stop at the next token, then free the sequence.
        stop.abort();
        await done;
        chat.dispose({ disposeSequence: false });
      }
    } catch (error) {
      if (request.signal.aborted) return;
      throw providerError(error, contextSize);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      slot?.release();
    }
  }

  return {
    stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      // No functions offered, so no tool call comes: only deltas and usage. Returned as it is, not
      // re-yielded through another generator (one step less per token).
      return generate(request, chatHistory(request.messages), { kind: 'none' }, false) as AsyncIterable<ProviderEvent>;
    },

    agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      return generate(request, agentHistory(request.messages), toolUse(request), true);
    },
  };
}
