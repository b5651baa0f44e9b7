import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { anthropicProvider } from '../../../main/core/models/providers/anthropic.js';
import type { After } from '../../../main/core/models/providers/first-byte.js';
import { openAiCompatibleProvider } from '../../../main/core/models/providers/openai-compatible.js';
import { ProviderError, type Provider, type ProviderEvent, type ProviderRequest } from '../../../main/core/platform/ports/providers.js';
import { startUpstream, type Upstream } from '../../fixtures/upstream.js';

/** Deadlines the test fires by hand: no waiting on the clock. */
function manualAfter() {
  const pending = new Set<{ ms: number; fn: () => void }>();
  const after: After = (ms, fn) => {
    const timer = { ms, fn };
    pending.add(timer);
    return () => pending.delete(timer);
  };
  const fire = () => {
    for (const timer of [...pending]) {
      pending.delete(timer);
      timer.fn();
    }
  };
  return { after, pending, fire };
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

const CASES: Array<{ name: string; make: (after: After) => Provider; path: string; base: () => string }> = [
  { name: 'OpenAI-compatible', make: (after) => openAiCompatibleProvider({ after }), path: '/v1/chat/completions', base: () => upstream.openaiBaseUrl },
  { name: 'Anthropic', make: (after) => anthropicProvider({ after }), path: '/v1/messages', base: () => upstream.anthropicBaseUrl },
];

const request = (endpoint: string, model: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  model,
  endpoint_url: endpoint,
  api_key: 'sk-test',
  messages: [{ role: 'user', content: 'hello' }],
  passages: [],
  has_datasets: false,
  signal: new AbortController().signal,
  ...extra,
});

async function drain(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe.each(CASES)('$name: the first-byte deadline', ({ make, path, base }) => {
  it('gives up a server that accepted the request and never answers, once the deadline passes', async () => {
    const { after, pending, fire } = manualAfter();
    const hold = upstream.hold(path);
    try {
      const done = drain(make(after).stream(request(base(), 'echo', { first_byte_timeout_ms: 15_000 })));
      await vi.waitFor(() => expect(hold.held()).toBe(1));
      expect([...pending].map((t) => t.ms)).toEqual([15_000]);
      fire();
      await expect(done).rejects.toSatisfy((e) => e instanceof ProviderError && e.code === 'upstream_error' && /sent nothing within 15 s/.test(e.message));
      // The abandoned request is closed, not left open on the server.
      await vi.waitFor(() => expect(hold.held()).toBe(0));
    } finally {
      hold.release();
    }
  });

  it('gives up a server that sent its headers but no first chunk', async () => {
    const { after, fire } = manualAfter();
    const before = upstream.requests.length;
    const done = drain(make(after).stream(request(base(), 'slow-first:600000', { first_byte_timeout_ms: 15_000 })));
    await vi.waitFor(() => expect(upstream.requests.length).toBe(before + 1));
    fire();
    await expect(done).rejects.toSatisfy((e) => e instanceof ProviderError && /sent nothing within 15 s/.test(e.message));
  });

  it('a server that starts answering is not cut by the deadline, and no timer is left behind', async () => {
    const { after, pending } = manualAfter();
    const events = await drain(make(after).stream(request(base(), 'echo', { first_byte_timeout_ms: 15_000 })));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : '')).join('')).toBe('You said: hello');
    expect(pending.size).toBe(0);
  });

  it('without a deadline (the last candidate) no timer is set', async () => {
    const { after, pending } = manualAfter();
    const hold = upstream.hold(path);
    const controller = new AbortController();
    try {
      const done = drain(make(after).stream(request(base(), 'echo', { signal: controller.signal })));
      await vi.waitFor(() => expect(hold.held()).toBe(1));
      expect(pending.size).toBe(0);
      controller.abort();
      expect(await done).toEqual([]);
    } finally {
      hold.release();
    }
  });

  it('passes the request’s sampling on, and reports a cut by the token limit', async () => {
    const events = await drain(make(manualAfter().after).stream(request(base(), 'length:cut short', { temperature: 0.3, top_p: 0.9, max_tokens: 12, stop: ['END'] })));
    expect(events).toContainEqual({ type: 'finish', reason: 'length' });
    const sent = upstream.requests.filter((r) => r.path === path).at(-1)?.body as Record<string, unknown>;
    if (path === '/v1/messages') {
      // Recent Claude models refuse temperature and top_p together: the temperature wins.
      expect(sent).toMatchObject({ temperature: 0.3, max_tokens: 12, stop_sequences: ['END'] });
      expect(sent.top_p).toBeUndefined();
    } else {
      expect(sent).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 12, stop: ['END'] });
    }
  });
});
