/**
 * SQLite's own limit on a database's size: PostgreSQL has no such per-connection limit to set, so
 * this file runs on SQLite only (vitest.config.ts: the contract-postgres project leaves test/contract/sqlite/ out).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteOf } from '../../support/core.js';
import { startChatHarness, type Harness } from '../../support/chat.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a full database', () => {
  it('a write SQLite refuses as full answers 507 insufficient_storage, and nothing is half-written', async () => {
    h = await startChatHarness();
    // SQLite's own limit: no page may be added, so a write that needs one fails with SQLITE_FULL.
    const pages = sqliteOf(h.core).pragma('page_count', { simple: true }) as number;
    sqliteOf(h.core).pragma(`max_page_count = ${pages}`);
    const created: string[] = [];
    let full: Response | undefined;
    // Rows fit in the free space of existing pages for a while: write until one needs a new page.
    for (let i = 0; i < 500 && !full; i++) {
      const res = await h.api('/threads', { method: 'POST', body: JSON.stringify({ title: `Thread ${i} ${'words '.repeat(150)}`.slice(0, 190), system_prompt: 'p'.repeat(3000) }) });
      if (res.status === 201) created.push(((await res.json()) as { id: string }).id);
      else full = res;
    }
    expect(full?.status).toBe(507);
    expect(await full?.json()).toMatchObject({ code: 'insufficient_storage', status: 507, detail: expect.stringMatching(/disk .* is full/) });
    sqliteOf(h.core).pragma(`max_page_count = ${2 ** 30}`);
    // Every thread that was answered 201 is there, and nothing of the refused one.
    const listed = (await h.json<{ data: Array<{ id: string }> }>('/threads?limit=100', 'GET')).body.data.map((t) => t.id);
    expect(listed.sort()).toEqual([...created].sort());
  });
});
