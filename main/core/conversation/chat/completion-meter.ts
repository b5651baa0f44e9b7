import type { Citation } from '../../../../shared/events.js';
import { cutUtf8 } from '../../../../shared/bytes.js';
import { stopList } from '../../../../shared/sampling.js';
import type { ChatCompletionRequest } from '../../../../shared/openai.js';
import { answerByteCap, nextTurn, TURN_TEXT_BYTES, type AttemptEvent } from '../../answering/index.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import type { OutputFormat, Sampling } from '../../platform/ports/providers.js';
import { estimateTokens } from '../../platform/tokens.js';

/** The answer's sources, once it has ended: the facade sends them as `parley.citations`. */
export type CitationsEvent = { type: 'citations'; citations: Citation[] };
export type CompletionEvent = AttemptEvent | CitationsEvent;

function outputFormat(format: ChatCompletionRequest['response_format']): OutputFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, schema, strict } = format.json_schema;
  return { type: 'json_schema', name, schema: schema ?? { type: 'object' }, ...(strict != null ? { strict } : {}) };
}

/** A `/v1` request's sampling, with the ceiling every request carries: the caller's `max_tokens` when smaller, else `[chat] max_answer_tokens`. */
export function completionSampling(ctx: ContextSlice<'config'>, request: ChatCompletionRequest): Sampling {
  const ceiling = ctx.config().chat.max_answer_tokens;
  return {
    temperature: request.temperature ?? undefined,
    top_p: request.top_p ?? undefined,
    max_tokens: Math.min(request.max_completion_tokens ?? request.max_tokens ?? ceiling, ceiling),
    stop: stopList(request.stop),
    seed: request.seed ?? undefined,
    presence_penalty: request.presence_penalty ?? undefined,
    frequency_penalty: request.frequency_penalty ?? undefined,
    user: request.user,
    response_format: outputFormat(request.response_format),
  };
}

/**
 * What every stateless `/v1` answer passes through: shutdown waits for it; its text stops at the
 * byte ceiling (a server that ignores `max_tokens` cannot stream without end: the cut ends the
 * answer as the token limit would, `finish_reason: "length"`, and leaving the loop closes the
 * upstream request); an answer that asked for tools ends for that reason; and its usage is
 * recorded (source `openai`) however it ends.
 */
export async function* metered(
  ctx: AuthedSlice<'repos' | 'config' | 'now', 'lifecycle'>,
  answer: { modelId: string; prompt: string; signal: AbortSignal },
  events: AsyncIterable<CompletionEvent>,
): AsyncIterable<CompletionEvent> {
  let release = () => {};
  void ctx.runtime.lifecycle.track(new Promise<void>((resolve) => (release = resolve)));
  const maxBytes = answerByteCap(ctx.config().chat.max_answer_tokens);
  let modelId = answer.modelId;
  let usage: { input_tokens: number; output_tokens: number } | null = null;
  let text = '';
  let bytes = 0;
  let sinceTurn = 0;
  let called = false;
  try {
    for await (const event of events) {
      if (event.type === 'switch') modelId = event.model.model.id;
      else if (event.type === 'tool_call') called = true;
      else if (event.type === 'usage') usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
      else if (event.type === 'delta') {
        const size = Buffer.byteLength(event.text, 'utf8');
        if (bytes + size > maxBytes) {
          const kept = cutUtf8(event.text, maxBytes - bytes);
          if (kept) yield { type: 'delta', text: kept };
          text += kept;
          yield { type: 'finish', reason: 'length' };
          return;
        }
        bytes += size;
        text += event.text;
        // Deltas already buffered arrive as resolved promises: let other requests in now and then.
        sinceTurn += size;
        if (sinceTurn >= TURN_TEXT_BYTES) {
          sinceTurn = 0;
          await nextTurn();
        }
      }
      yield event;
    }
    if (called && !answer.signal.aborted) yield { type: 'finish', reason: 'tool_calls' };
  } finally {
    const counted = usage ?? { input_tokens: estimateTokens(answer.prompt), output_tokens: estimateTokens(text) };
    try {
      ctx.repos.usage.record({ user_id: ctx.caller.user.id, model_id: modelId, source: 'openai', message_id: null, ...counted, created_at: isoNow(ctx) });
    } finally {
      release();
    }
  }
}
