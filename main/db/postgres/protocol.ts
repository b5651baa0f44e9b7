/** What a synchronous PostgreSQL connection asks its thread (pg-worker.ts), and the answers. */
export type WorkerCall =
  | { op: 'open'; url: string; name: string }
  | { op: 'query'; id: number; text: string; values: unknown[]; array?: boolean }
  | { op: 'close'; id: number };

export type WorkerReply =
  | { ok: true; id?: number; rows?: unknown[]; rowCount?: number }
  | { ok: false; message: string; code?: string | undefined; detail?: string | undefined; constraint?: string | undefined };
