/**
 * The thread that talks to PostgreSQL for a synchronous connection (./connection.ts): the
 * repositories call statements synchronously, as on SQLite, and synckit blocks the calling thread
 * on an Atomics wait until this thread's `pg` client answers. One client per connection id.
 */
import pg from 'pg';
import { runAsWorker } from 'synckit';
import type { WorkerCall, WorkerReply } from './protocol.js';

// Results as SQLite gives them: 64-bit integers and sums (numeric) as numbers, booleans as 1/0.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.FLOAT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.BOOL, (value) => (value === 't' ? 1 : 0));

const clients = new Map<number, pg.Client>();
let nextId = 1;

/** Parameters as `pg` sends them: bytes back to Buffers (they arrive as Uint8Arrays), bigints as text. */
function param(value: unknown): unknown {
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function failure(error: unknown): WorkerReply {
  const e = error as { message?: string; code?: string; detail?: string; constraint?: string };
  return { ok: false, message: e.message ?? String(error), code: e.code, detail: e.detail, constraint: e.constraint };
}

async function handle(call: WorkerCall): Promise<WorkerReply> {
  try {
    switch (call.op) {
      case 'open': {
        const client = new pg.Client({ connectionString: call.url, application_name: call.name });
        // A dropped connection is said by the next query's error; an unhandled 'error' event would end the thread.
        client.on('error', () => {});
        await client.connect();
        const id = nextId++;
        clients.set(id, client);
        return { ok: true, id };
      }
      case 'query': {
        const client = clients.get(call.id);
        if (!client) return { ok: false, message: 'The database connection is not open', code: 'closed' };
        const values = call.values.map(param);
        const result: pg.QueryResult | pg.QueryResult[] = call.array ? await client.query({ text: call.text, values, rowMode: 'array' }) : await client.query(call.text, values);
        // A script of several statements answers with one result each: the last is the one that counts.
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { ok: true, rows: last?.rows ?? [], rowCount: last?.rowCount ?? 0 };
      }
      case 'close': {
        const client = clients.get(call.id);
        clients.delete(call.id);
        await client?.end();
        return { ok: true };
      }
    }
  } catch (error) {
    return failure(error);
  }
}

runAsWorker(handle);
