/**
 * Tool calling with a LOCAL model, through the clients exactly as they are used: the Vercel AI
 * SDK's tool loop, LangChain's ChatOpenAI with a forced tool, and the Anthropic SDK on
 * `/v1/messages` — all against a generated GGUF on the real llama.cpp path. The model never picks
 * a tool by itself (it writes its alphabet), so each call is forced by the client's own
 * `tool_choice`; a grammar holds the arguments to the tool's schema, which the client then
 * validates and runs.
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { generateText, stepCountIs, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { tool as lcTool } from '@langchain/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_ANSWER, makeGguf } from '../fixtures/gguf.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-local-tools-'));
let h: Harness;
let model = '';

beforeAll(async () => {
  // One thread: on a 2-core machine llama.cpp's own default is far slower per token.
  writeFileSync(join(dataDir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'local-tools.gguf'), makeGguf({ name: 'Local Tools', contextLength: 2048 }));
  h = await startChatHarness({ dataDir });
  const listed = (await h.json<{ data: Array<{ id: string; name: string }> }>('/models', 'GET')).body.data;
  const found = listed.find((m) => m.name === 'Local Tools');
  if (!found) throw new Error('the generated GGUF is not listed');
  model = found.id;
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The weather tool's arguments, bounded so the tiny model's grammar-held strings end. */
const WEATHER = z.object({ city: z.string().max(12), unit: z.enum(['celsius', 'fahrenheit']) });
const WEATHER_JSON = { type: 'object' as const, properties: { city: { type: 'string', maxLength: 12 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] };

describe('tools with a local GGUF model', { timeout: 120_000 }, () => {
  it('the AI SDK tool loop: the forced call runs the tool with valid arguments, the next step answers text', async () => {
    const parley = createOpenAICompatible({ name: 'parley', baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY });
    const ran: Array<z.infer<typeof WEATHER>> = [];
    const weather = tool({
      description: 'Looks up the weather in a city.',
      inputSchema: WEATHER,
      execute: async (input) => {
        ran.push(input);
        return `sunny in ${input.city}`;
      },
    });
    const result = await generateText({
      model: parley(model),
      tools: { weather },
      toolChoice: { type: 'tool', toolName: 'weather' },
      // Once the tool has answered, the model must answer in words.
      prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: 'none' } : {}),
      stopWhen: stepCountIs(3),
      prompt: 'weather in Oslo',
      temperature: 0,
    });
    // The SDK validated the arguments against the zod schema before running the tool.
    expect(ran).toHaveLength(1);
    expect(WEATHER.safeParse(ran[0]).success).toBe(true);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]).toMatchObject({ finishReason: 'tool-calls', toolResults: [expect.objectContaining({ toolName: 'weather', output: `sunny in ${ran[0]?.city}` })] });
    expect(result.steps[1]?.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe(CHAT_ANSWER);
  });

  it("LangChain's ChatOpenAI.bindTools with tool_choice naming the tool gets that call, its args valid", async () => {
    const weather = lcTool(async ({ city }: z.infer<typeof WEATHER>) => `sunny in ${city}`, { name: 'weather', description: 'Looks up the weather in a city.', schema: WEATHER });
    const llm = new ChatOpenAI({ model, apiKey: TEST_ADMIN_KEY, configuration: { baseURL: `${h.url}/v1` }, maxRetries: 0, temperature: 0 });
    const message = await llm.bindTools([weather], { tool_choice: 'weather' }).invoke('weather in Oslo');
    expect(message.tool_calls).toHaveLength(1);
    const call = message.tool_calls?.[0];
    expect(call).toMatchObject({ name: 'weather', id: expect.any(String) });
    expect(WEATHER.safeParse(call?.args).success, JSON.stringify(call?.args)).toBe(true);
    expect(message.response_metadata.finish_reason).toBe('tool_calls');
    // The call runs as the tool it names.
    expect(await weather.invoke(WEATHER.parse(call?.args))).toBe(`sunny in ${(call?.args as { city: string }).city}`);
  });

  it('the Anthropic SDK: tool_choice {type: "tool"} gets a tool_use whose input validates, and the tool_result turn is answered with text', async () => {
    const client = new Anthropic({ baseURL: h.url, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
    const tools = [{ name: 'weather', description: 'Looks up the weather in a city.', input_schema: WEATHER_JSON }];
    const question = 'weather in Oslo';
    const first = await client.messages.create({ model, max_tokens: 200, tools, tool_choice: { type: 'tool', name: 'weather' }, messages: [{ role: 'user', content: question }] });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b) => b.type === 'tool_use');
    if (use?.type !== 'tool_use') throw new Error(`no tool_use: ${JSON.stringify(first.content)}`);
    expect(use).toMatchObject({ name: 'weather', id: expect.any(String) });
    const ajv = new Ajv();
    expect(ajv.validate(WEATHER_JSON, use.input), ajv.errorsText()).toBe(true);

    const second = await client.messages.create({
      model,
      max_tokens: 200,
      tools,
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 °C.' }] },
      ],
    });
    expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: CHAT_ANSWER }] });
  });

  it('a stop string ends the answer: Anthropic says stop_sequence and which (plain and streamed), OpenAI says stop', async () => {
    const client = new Anthropic({ baseURL: h.url, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
    const request = { model, max_tokens: 64, stop_sequences: ['xyz', 'def'], messages: [{ role: 'user' as const, content: 'abc' }] };
    const whole = await client.messages.create(request);
    expect(whole).toMatchObject({ content: [{ type: 'text', text: 'abc' }], stop_reason: 'stop_sequence', stop_sequence: 'def' });
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed).toMatchObject({ content: [{ type: 'text', text: 'abc' }], stop_reason: 'stop_sequence', stop_sequence: 'def' });

    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, temperature: 0, stop: ['def'], messages: [{ role: 'user', content: 'abc' }] }),
    });
    expect(((await res.json()) as { choices: unknown[] }).choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'abc' } });
  });
});
