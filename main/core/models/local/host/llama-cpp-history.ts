import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, GbnfJsonSchema } from 'node-llama-cpp';
import type { AgentTurn, AgentTurnRequest, ChatTurn, ToolSpec } from '../../../platform/ports/providers.js';

/**
 * A local model's request as plain data: the conversation in node-llama-cpp's history form and
 * what it may do with tools. Built in the main process and sent to the model's process as it is
 * (structured-cloneable: no grammar, no class instance), where the grammar is built.
 */

export function chatHistory(turns: ChatTurn[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = turns.map((t) =>
    t.role === 'system' ? { type: 'system', text: t.content } : t.role === 'user' ? { type: 'user', text: t.content } : { type: 'model', response: [t.content] },
  );
  history.push({ type: 'model', response: [] });
  return history;
}

/** The agent transcript in node-llama-cpp's terms: tool calls and their results become function calls of the model's turn. */
export function agentHistory(turns: AgentTurn[]): ChatHistoryItem[] {
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
 * property required, so optional ones are left out (the tool then uses its default). With
 * `maxStringLength`, strings are held to it (and to the schema's own bounds): a small model under a
 * grammar can write a string that never ends, and a call cut by the token limit is no call.
 */
export function grammarSchema(schema: Record<string, unknown>, maxStringLength?: number): GbnfJsonSchema {
  const description = typeof schema.description === 'string' ? { description: schema.description } : {};
  switch (schema.type) {
    case 'string': {
      if (Array.isArray(schema.enum)) return { enum: schema.enum.filter((v): v is string => typeof v === 'string'), ...description };
      const min = typeof schema.minLength === 'number' ? { minLength: schema.minLength } : {};
      const ownMax = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
      const max = maxStringLength === undefined ? ownMax : Math.min(ownMax ?? maxStringLength, maxStringLength);
      return { type: 'string', ...min, ...(max === undefined ? {} : { maxLength: max }), ...description };
    }
    case 'integer':
      return { type: 'integer', ...description };
    case 'number':
      return { type: 'number', ...description };
    case 'boolean':
      return { type: 'boolean', ...description };
    case 'array':
      return { type: 'array', items: grammarSchema((schema.items ?? {}) as Record<string, unknown>, maxStringLength), ...description };
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      return {
        type: 'object',
        properties: Object.fromEntries(Object.entries(properties).filter(([k]) => required.has(k)).map(([k, v]) => [k, grammarSchema(v, maxStringLength)])),
        ...description,
      };
    }
  }
}

function functionsOf(tools: ToolSpec[]): ChatModelFunctions {
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: grammarSchema(t.parameters) }]));
}

/**
 * What an agent turn may do with tools: nothing (plain chat, or `none`), choose among them, call
 * one now, or call one of several now (`required`).
 */
export type ToolUse = { kind: 'none' } | { kind: 'choose'; functions: ChatModelFunctions } | { kind: 'call'; tool: ToolSpec } | { kind: 'call-any'; tools: ToolSpec[] };

export function toolUse(request: AgentTurnRequest): ToolUse {
  const choice = request.tool_choice;
  if (typeof choice === 'object') {
    const tool = request.tools.find((t) => t.name === choice.name);
    if (tool) return { kind: 'call', tool };
  }
  if (choice === 'required' && request.tools.length === 1) return { kind: 'call', tool: request.tools[0]! };
  if (choice === 'required' && request.tools.length > 1) return { kind: 'call-any', tools: request.tools };
  return choice === 'auto' && request.tools.length > 0 ? { kind: 'choose', functions: functionsOf(request.tools) } : { kind: 'none' };
}

/**
 * The history with an instruction to call `tool` now, its arguments as JSON. The grammar holds the
 * model to the tool's schema, so even a model that never learnt tool calling writes a valid call.
 */
export function callNowHistory(history: ChatHistoryItem[], tool: ToolSpec): ChatHistoryItem[] {
  const instruction = `Call the tool ${tool.name} now: ${tool.description} Write only its arguments, as a JSON object.`;
  const first = history[0];
  if (first?.type === 'system' && typeof first.text === 'string') return [{ type: 'system', text: `${first.text}\n\n${instruction}` }, ...history.slice(1)];
  return [{ type: 'system', text: instruction }, ...history];
}

/**
 * The grammar schema of a call of any of `tools`: `{"name": …, "arguments": {…}}`, the arguments
 * held to the named tool's schema.
 */
export function anyCallSchema(tools: ToolSpec[], maxStringLength: number): GbnfJsonSchema {
  return { oneOf: tools.map((t) => ({ type: 'object', properties: { name: { const: t.name }, arguments: grammarSchema(t.parameters, maxStringLength) } })) };
}

/** The history with an instruction to call one of `tools` now. */
export function callAnyHistory(history: ChatHistoryItem[], tools: ToolSpec[]): ChatHistoryItem[] {
  const list = tools.map((t) => `- ${t.name}: ${t.description}`).join('\n');
  const instruction = `Call one of these tools now, writing only {"name": <tool>, "arguments": {…}} as JSON:\n${list}`;
  const first = history[0];
  if (first?.type === 'system' && typeof first.text === 'string') return [{ type: 'system', text: `${first.text}\n\n${instruction}` }, ...history.slice(1)];
  return [{ type: 'system', text: instruction }, ...history];
}
