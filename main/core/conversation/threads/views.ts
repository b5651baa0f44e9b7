import type { Message } from '../../../../shared/events.js';
import type { Thread } from '../../../../shared/operations/threads.js';
import type { MessageRow } from '../../../db/repositories/messages.js';
import type { ThreadRow } from '../../../db/repositories/threads.js';
import type { ThoughtRow } from '../../../db/repositories/thoughts.js';
import type { ErrorCode } from '../../../../shared/errors.js';

export function threadView(row: ThreadRow, datasetIds: string[]): Thread {
  return {
    id: row.id,
    title: row.title,
    dataset_ids: datasetIds,
    suggestions_enabled: row.suggestions_enabled === 1,
    system_prompt: row.system_prompt,
    workflow_id: row.workflow_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A message as the API shows it; an agentic answer's steps come from the thoughts table. */
export function messageView(row: MessageRow, thoughts: readonly ThoughtRow[] = []): Message {
  return {
    id: row.id,
    thread_id: row.thread_id,
    parent_id: row.parent_id,
    role: row.role,
    content: row.content,
    status: row.status,
    model_id: row.model_id,
    routing: row.routing ? JSON.parse(row.routing) : null,
    citations: JSON.parse(row.citations),
    thoughts: thoughts.map((t) => ({ id: t.id, kind: t.kind, content: t.content })),
    usage: row.input_tokens === null || row.output_tokens === null ? null : { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
    error: row.error_code ? { code: row.error_code as ErrorCode, detail: row.error_detail ?? '' } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
