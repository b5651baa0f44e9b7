import type { z } from 'zod';
import type { Message } from '../../../../shared/events.js';
import type { Thread } from '../../../../shared/operations/threads.js';
import type { MessageRecord } from '../../../db/repositories/messages.js';
import type { ThreadRecord } from '../../../db/repositories/threads.js';
import type { ThoughtRecord } from '../../../db/repositories/thoughts.js';
import type { MessageImageRecord } from '../../../db/repositories/message-images.js';
import type { ErrorCode } from '../../../../shared/errors.js';

/** The record with its datasets; the output schema leaves its internal columns behind. */
export function threadView(row: ThreadRecord, datasetIds: string[]): z.input<typeof Thread> {
  return { ...row, dataset_ids: datasetIds };
}

/** A message as the API shows it; an agentic answer's steps come from the thoughts table, a question's images from theirs. */
export function messageView(row: MessageRecord, thoughts: readonly ThoughtRecord[] = [], images: readonly MessageImageRecord[] = []): Message {
  return {
    id: row.id,
    thread_id: row.thread_id,
    parent_id: row.parent_id,
    role: row.role,
    content: row.content,
    status: row.status,
    model_id: row.model_id,
    routing: row.routing,
    citations: row.citations,
    thoughts: thoughts.map((t) => ({ id: t.id, kind: t.kind, content: t.content })),
    usage: row.input_tokens === null || row.output_tokens === null ? null : { input_tokens: row.input_tokens, output_tokens: row.output_tokens },
    first_token_ms: row.first_token_ms,
    latency_ms: row.latency_ms,
    images: images.map((i) => ({ id: i.id, name: i.name, media_type: i.media_type, size: i.size })),
    error: row.error_code ? { code: row.error_code as ErrorCode, detail: row.error_detail ?? '' } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
