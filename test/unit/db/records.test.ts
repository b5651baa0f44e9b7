/**
 * Issue 32, item 4: repositories answer records, not SQLite's encoding — flags as booleans, JSON
 * columns as values — so the core never decodes a row (and a PostgreSQL implementation can answer
 * the same records).
 */
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Repositories } from '../../../main/db/repositories/index.js';
import { bootTestCore } from '../../support/core.js';

let core: ReturnType<typeof bootTestCore>;
let user: ReturnType<typeof core.desktopCaller>['user'];
const now = '2026-11-26T12:00:00.000Z';
beforeEach(() => {
  core = bootTestCore();
  user = core.desktopCaller().user;
});
afterEach(() => core.remove());

type Read<K extends keyof Repositories, F extends keyof Repositories[K]> = Repositories[K][F] extends (...args: never[]) => infer T ? NonNullable<T> : never;

describe('records', () => {
  it('answer flags as booleans, by type and at run time', () => {
    expectTypeOf<Read<'threads', 'get'>['suggestions_enabled']>().toEqualTypeOf<boolean>();
    expectTypeOf<Read<'workflows', 'get'>['agentic']>().toEqualTypeOf<boolean>();
    expectTypeOf<Read<'comparisons', 'get'>['blind']>().toEqualTypeOf<boolean>();
    expectTypeOf<Read<'artifacts', 'get'>['replacing']>().toEqualTypeOf<boolean>();

    core.repos.threads.insert({ id: 'thr_r', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: true, system_prompt: null, workflow_id: null, dataset_ids: [], now });
    expect(core.repos.threads.get('thr_r')?.suggestions_enabled).toBe(true);
    core.repos.threads.update('thr_r', { suggestions_enabled: false }, now);
    expect(core.repos.threads.page(user.id, 10, undefined, undefined)?.rows[0]?.suggestions_enabled).toBe(false);

    core.repos.workflows.insert({ id: 'wf_r', organization_id: user.organization_id, name: 'w', description: null, system_prompt: 'p', model_endpoint_override: null, agentic: true, active: false, created_by: user.id, dataset_ids: [], now });
    expect(core.repos.workflows.get('wf_r')).toMatchObject({ agentic: true, active: false });
    expect(core.repos.workflows.list(user.organization_id)[0]).toMatchObject({ agentic: true, active: false });
  });

  it('answer JSON columns as values, written as values', () => {
    const citation = { index: 1, dataset_id: 'ds_1', artifact_id: 'art_1', artifact_key: 'a.md', snippet: 's', location: { line: 3 } };
    core.repos.comparisons.insert({ id: 'cmp_r', user_id: user.id, organization_id: user.organization_id, prompt: 'q', blind: true, dataset_ids: ['ds_1'], now });
    core.repos.comparisons.setCitations('cmp_r', [citation], now);
    expect(core.repos.comparisons.get('cmp_r')).toMatchObject({ blind: true, dataset_ids: ['ds_1'], citations: [citation] });

    core.repos.threads.insert({ id: 'thr_m', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
    const routing = { mode: 'dynamic' as const, model_id: 'mdl_a', reason: 'r', skipped: [] };
    core.repos.messages.insert({ id: 'msg_m', thread_id: 'thr_m', parent_id: null, role: 'assistant', content: '', status: 'streaming', model_id: 'mdl_a', routing, now });
    core.repos.messages.finish('msg_m', { content: 'x', status: 'complete', citations: [citation], input_tokens: 1, output_tokens: 1, error_code: null, error_detail: null, now });
    expect(core.repos.messages.get('msg_m')).toMatchObject({ routing, citations: [citation] });
  });

  it('read a message whose citations were damaged as one without citations, its text intact', () => {
    core.repos.threads.insert({ id: 'thr_d', user_id: user.id, workspace_id: user.workspace_id, title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
    core.repos.messages.insert({ id: 'msg_d', thread_id: 'thr_d', parent_id: null, role: 'user', content: 'hello', status: 'complete', model_id: null, routing: null, now });
    core.db.prepare("UPDATE messages SET citations = '[{' , routing = '7' WHERE id = 'msg_d'").run();
    expect(core.repos.messages.history('thr_d')).toMatchObject([{ content: 'hello', citations: [], routing: null }]);
  });
});
