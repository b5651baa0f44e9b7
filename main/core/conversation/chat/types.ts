import type { Sampling } from '../../platform/ports/providers.js';

/** What a chat request asks for, as the chat operations and workflows (which fill parts of it in) see it. */
export interface ChatInput {
  thread_id?: string | undefined;
  /** The message the new one follows (default: the thread's newest). */
  parent_id?: string | undefined;
  message: string;
  dataset_ids?: string[] | undefined;
  agentic: boolean;
  model_endpoint_override?: string | undefined;
  workflow_id?: string | undefined;
  /** How the answer is sampled (`stop` as the request gave it: one text or several). */
  temperature?: Sampling['temperature'];
  top_p?: Sampling['top_p'];
  max_tokens?: Sampling['max_tokens'];
  stop?: string | string[] | undefined;
}
