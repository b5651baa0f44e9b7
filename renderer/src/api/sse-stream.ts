// The parser itself rather than its `/stream` wrapper: lint reads any `*/stream` import as Node's.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ServiceError } from '../../../shared/errors.js';
import { operations, type OperationName } from '../../../shared/operations/index.js';
import { buildHttpRequest, problemToError } from './http-request.js';
import type { StreamOptions, StreamSignal } from './transport.js';

export interface SseStreamOptions {
  base: string;
  token: () => string | null;
  fetch: typeof fetch;
}

/**
 * Browser streaming: the operation's HTTP request with `Accept: text/event-stream`, its SSE body
 * parsed as it arrives. Each SSE event is `event:` the type, `id:` its sequence number and `data:`
 * JSON; it is handed on as `{ event, data }`, the shape the bridge sends.
 */
export function openSseStream(
  options: SseStreamOptions,
  operation: OperationName,
  input: unknown,
  streamOptions: StreamOptions,
  onSignal: (signal: StreamSignal) => void,
): () => void {
  const controller = new AbortController();
  let closed = false;
  const emit = (signal: StreamSignal) => {
    if (!closed) onSignal(signal);
  };

  void (async () => {
    let response: Response;
    try {
      const request = buildHttpRequest(operations[operation], input);
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      const token = options.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      if (request.body !== undefined) headers['Content-Type'] = 'application/json';
      if (streamOptions.lastEventId !== undefined) headers['Last-Event-ID'] = String(streamOptions.lastEventId);
      response = await options.fetch(`${options.base}${request.path}`, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: controller.signal,
      });
    } catch (error) {
      if (error instanceof ServiceError) return emit({ type: 'error', error });
      return emit({ type: 'error', error: new ServiceError('unavailable', `Could not reach the Parley service at ${options.base}. Is it running?`) });
    }
    if (!response.ok || !response.body) {
      emit({ type: 'error', error: await problemToError(response) });
      return;
    }
    const handle = (message: EventSourceMessage) => {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        data = message.data;
      }
      emit({ type: 'event', id: Number(message.id ?? -1), event: { event: message.event ?? 'message', data } });
    };
    const parser = createParser({ onEvent: handle });
    try {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      emit({ type: 'end' });
    } catch {
      emit({ type: 'error', error: new ServiceError('unavailable', 'The connection to the Parley service was lost.') });
    }
  })();

  return () => {
    closed = true;
    controller.abort();
  };
}
