import { SIMPLE_CHAT_WORKFLOW_ID, type Workflow } from '../../../../shared/operations/workflows.js';
import type { Context } from '../../platform/context.js';

/** Launch date of the built-in workflow: a fixed timestamp, so its view never changes between calls. */
const BUILT_AT = '2024-05-05T00:00:00.000Z';

/**
 * The built-in Simple Chat: a plain assistant without datasets, routed dynamically. It is not
 * stored: it exists while `[features] simple_chat = true` and is read from the live configuration
 * on every call, so flipping the flag applies at once.
 */
export function simpleChat(ctx: Pick<Context, 'config'>): Workflow {
  return {
    id: SIMPLE_CHAT_WORKFLOW_ID,
    name: 'Simple Chat',
    description: 'A plain assistant: no datasets, the router picks the model.',
    system_prompt: 'You are a helpful assistant. Answer clearly and concisely; say so when you do not know.',
    model_endpoint_override: null,
    dataset_ids: [],
    agentic: false,
    active: ctx.config().features.simple_chat,
    builtin: true,
    created_at: BUILT_AT,
    updated_at: BUILT_AT,
  };
}
