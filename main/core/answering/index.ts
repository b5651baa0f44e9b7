/**
 * Answering a question, as the conversation wing sees it: chat, agents, comparisons, workflows,
 * reports, suggestions and the `/v1` completions answer through this one surface and never reach
 * into the files behind it. Answering sits below the conversation wing and imports nothing from it:
 * what only a conversation knows (MCP servers' tools, where an answer is stored) comes in as
 * arguments (`OpenExternalTools`, `AnswerStore`).
 */
export { answerEvents, answerSources, type AgentPlan, type AnswerPlan } from './answer.js';
export { answerWithFailover, type AttemptEvent, type CallerTools, type FailoverRuntime } from './failover.js';
export { groundingFor, type Grounding } from './grounding.js';
export { buildTurns } from './turns.js';
export { agentDatasets, type AgentDataset, type ToolEnv, type ToolResult } from './agent/tools.js';
export type { AgentEvent, ExternalTools, OpenExternalTools } from './agent/types.js';
export { AnswerFailed } from './answer-failed.js';
export { cancelAnywhere } from './cancel-anywhere.js';
export { defuse, fenced } from './untrusted.js';
export type { RunHandle } from '../platform/ports/answers.js';
export {
  answerByteCap,
  INTERRUPTED,
  nextTurn,
  TURN_TEXT_BYTES,
  writeAnswer,
  type AnswerStore,
  type FlushTimer,
} from './streamed-answer.js';
