import { describe, expect, it } from 'vitest';
import { MessagesRequest } from '../../../shared/anthropic.js';
import { ChatCompletionRequest } from '../../../shared/openai.js';
import { collectMessage, messageEvents, toCompletionRequest } from '../../../main/core/conversation/chat/messages-api.js';
import type { Completion } from '../../../main/core/conversation/chat/completions.js';

const translate = (body: unknown) => {
  const openAi = toCompletionRequest(MessagesRequest.parse(body));
  // What the translation makes is a request the completion core accepts as it stands.
  expect(ChatCompletionRequest.safeParse(openAi).success).toBe(true);
  return openAi;
};

/** A completion whose events are given: the mapping is pure over them. */
const completion = (events: Completion['events'] extends AsyncIterable<infer E> ? E[] : never): Completion =>
  ({
    model: { model: { id: 'mdl_a' } },
    events: (async function* () {
      yield* events;
    })(),
  }) as unknown as Completion;

describe('Anthropic request → the completion core’s request', () => {
  it('puts tool results first as tool messages (errors said in the text), the user’s text after, and drops thinking', () => {
    const out = translate({
      model: 'auto',
      max_tokens: 100,
      system: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }],
      messages: [
        { role: 'user', content: 'find it' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'x' },
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'it' } },
            { type: 'tool_use', id: 'toolu_2', name: 'open', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'found' }] },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no such file', is_error: true },
            { type: 'text', text: 'and then?' },
          ],
        },
      ],
    });
    expect(out.messages).toEqual([
      { role: 'system', content: 'A\nB' },
      { role: 'user', content: 'find it' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'search', arguments: '{"q":"it"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'open', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'found' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: no such file' },
      { role: 'user', content: 'and then?' },
    ]);
  });

  it('maps tools, tool_choice, sampling, stop sequences and the end user', () => {
    const base = { model: 'm', max_tokens: 7, messages: [{ role: 'user', content: 'hi' }] };
    const tools = [{ name: 'search', description: 'd', input_schema: { type: 'object' } }];
    expect(translate({ ...base, tools, tool_choice: { type: 'any', disable_parallel_tool_use: true }, temperature: 0.5, top_p: 0.9, top_k: 5, stop_sequences: ['END'], metadata: { user_id: 'u-1' } })).toEqual({
      model: 'm',
      max_tokens: 7,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'search', description: 'd', parameters: { type: 'object' } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END'],
      user: 'u-1',
    });
    expect(translate({ ...base, tools, tool_choice: { type: 'tool', name: 'search' } }).tool_choice).toEqual({ type: 'function', function: { name: 'search' } });
    expect(translate({ ...base, tools, tool_choice: { type: 'none' } }).tool_choice).toBe('none');
    expect(translate({ ...base, tools, tool_choice: { type: 'auto' } }).tool_choice).toBe('auto');
  });

  it('refuses what it cannot carry with the field named', () => {
    const base = { model: 'm', max_tokens: 7, messages: [{ role: 'user', content: 'hi' }] };
    const path = (body: unknown) => MessagesRequest.safeParse(body).error?.issues[0]?.path.join('.');
    expect(path({ ...base, tools: [{ type: 'web_search_20250305', name: 'web_search' }] })).toMatch(/^tools\.0/);
    expect(path({ ...base, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] })).toBe('messages.0.content.0.type');
    const unknownBlock = MessagesRequest.safeParse({ ...base, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] }).error?.issues[0]?.message;
    expect(unknownBlock).toMatch(/text, image, tool_use, tool_result/);
    expect(path({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'file:///etc/passwd' } }] }] })).toMatch(/^messages\.0\.content\.0\.source/);
    expect(path({ ...base, max_tokens: undefined })).toBe('max_tokens');
  });
});

describe('the completion’s events → Anthropic’s message', () => {
  it('text then a tool call: two blocks in order, stop_reason tool_use, the model the fail-over switched to, usage at the end', async () => {
    const events = [
      ...[{ type: 'switch', model: { model: { id: 'mdl_b' } }, skipped: [] }],
      { type: 'delta', text: 'Let me ' },
      { type: 'delta', text: 'look.' },
      { type: 'tool_call', call: { id: 'call_1', name: 'search', arguments: '{"q":"x"}' } },
      { type: 'usage', input_tokens: 5, output_tokens: 9 },
    ] as unknown as Parameters<typeof completion>[0];
    const streamed = [];
    for await (const e of messageEvents(completion(events), 'msg_1')) streamed.push(e);
    expect(streamed.map((e) => e.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const message = await collectMessage(messageEvents(completion(events), 'msg_1'));
    expect(message).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'mdl_b',
      content: [
        { type: 'text', text: 'Let me look.', citations: null },
        { type: 'tool_use', id: 'call_1', name: 'search', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 9, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    });
  });

  it('an empty answer is still a whole message; a cut one says max_tokens; arguments that are not an object become {}', async () => {
    const empty = await collectMessage(messageEvents(completion([]), 'msg_2'));
    expect(empty).toMatchObject({ content: [], stop_reason: 'end_turn' });
    const cut = await collectMessage(messageEvents(completion([{ type: 'delta', text: 'abc' }, { type: 'finish', reason: 'length' }]), 'msg_3'));
    expect(cut).toMatchObject({ content: [{ type: 'text', text: 'abc' }], stop_reason: 'max_tokens' });
    const bad = await collectMessage(messageEvents(completion([{ type: 'tool_call', call: { id: 'c', name: 'n', arguments: '[1,' } }]), 'msg_4'));
    expect(bad.content).toEqual([{ type: 'tool_use', id: 'c', name: 'n', input: {} }]);
  });

  it('a stop string that ended the answer is stop_reason stop_sequence, naming it (streamed too)', async () => {
    const events = [{ type: 'delta', text: 'abc' }, { type: 'finish', reason: 'stop', stop_sequence: 'def' }] as const;
    const message = await collectMessage(messageEvents(completion([...events]), 'msg_5'));
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'abc' }], stop_reason: 'stop_sequence', stop_sequence: 'def' });
    const streamed = [];
    for await (const e of messageEvents(completion([...events]), 'msg_6')) streamed.push(e);
    expect(streamed.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'stop_sequence', stop_sequence: 'def' } });
    // Without a named stop string, the model ended its own turn.
    expect(await collectMessage(messageEvents(completion([{ type: 'delta', text: 'abc' }]), 'msg_7'))).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
  });
});
