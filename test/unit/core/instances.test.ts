/**
 * Issue 33, point 3: instances on one database claim background work one at a time, and a dead
 * instance's claims and answers are taken over. Two connections to one SQLite file stand for two
 * instances here (the same SQL runs on PostgreSQL: test/contract/postgres/instances.test.ts); the
 * clock and the heartbeat are driven by hand.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../main/db/connection.js';
import { createRepositories, type Repositories } from '../../../main/db/repositories/index.js';
import { instanceTimingFromEnv, Membership, type Every, type MembershipDeps } from '../../../main/core/platform/instances/membership.js';
import { tempDir } from '../../support/core.js';

const timing = { heartbeatMs: 1_000, leaseMs: 5_000 };

interface Instance {
  repos: Repositories;
  membership: Membership;
  beat: () => void;
  warnings: string[];
}

let dir: ReturnType<typeof tempDir>;
let clock: number;
const open: Array<{ close: () => void }> = [];

beforeEach(() => {
  dir = tempDir('parley-claims-');
  clock = Date.parse('2026-11-27T01:00:00Z');
  const db = openDatabase(join(dir.dir, 'parley.db'));
  migrate(db, join(dir.dir, 'parley.db'));
  db.close();
});
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  dir.remove();
});

/** An instance over its own connection; `beat` runs one heartbeat (and the take-over after it). */
function instance(id: string, options: Partial<MembershipDeps> & { takeOver?: () => void } = {}): Instance {
  const db = openDatabase(join(dir.dir, 'parley.db'));
  open.push(db);
  const repos = createRepositories(db, { instance: id });
  let tick: () => void = () => {};
  const every: Every = (_ms, fn) => {
    tick = fn;
    return () => (tick = () => {});
  };
  const warnings: string[] = [];
  const membership = new Membership({
    repo: repos.instances,
    now: () => new Date(clock),
    log: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} },
    recovers: true,
    exclusive: false,
    timing,
    every,
    host: 'host-a',
    pid: 4242,
    alive: () => true,
    ...options,
  });
  membership.join();
  membership.start(options.takeOver ?? (() => {}));
  return { repos, membership, beat: () => tick(), warnings };
}

function seedUser(repos: Repositories): void {
  if (repos.users.get('usr_1')) return;
  const now = new Date(clock).toISOString();
  repos.users.createOrganization({ id: 'org_1', name: 'Team', workspace_id: 'wsp_1', workspace_name: 'Team', now });
  repos.users.insert({ id: 'usr_1', organization_id: 'org_1', workspace_id: 'wsp_1', email: 'ann@example.com', name: 'Ann', role: 'super_admin', now });
}

/** An answer `repos`' instance is writing. */
function streamingAnswer(repos: Repositories, id: string): void {
  const now = new Date(clock).toISOString();
  seedUser(repos);
  if (!repos.threads.get('thr_1')) {
    repos.threads.insert({ id: 'thr_1', user_id: 'usr_1', workspace_id: 'wsp_1', title: 't', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now });
  }
  repos.messages.insert({ id, thread_id: 'thr_1', parent_id: null, role: 'assistant', content: 'partial', status: 'streaming', model_id: null, routing: null, now });
}

describe('claims on background work', () => {
  it('one live instance holds a piece of work at a time; released, the other may take it', () => {
    const a = instance('inst_a');
    const b = instance('inst_b');
    expect(a.repos.instances.claim('ingest', 'art_1', 'now')).toBe(true);
    expect(b.repos.instances.claim('ingest', 'art_1', 'now')).toBe(false);
    expect(b.repos.instances.holder('ingest', 'art_1')).toBe('inst_a');
    // Claiming again what it holds is no conflict (a file queued twice).
    expect(a.repos.instances.claim('ingest', 'art_1', 'now')).toBe(true);
    // Another kind of work under the same key is another claim.
    expect(b.repos.instances.claim('embedding', 'art_1', 'now')).toBe(true);
    a.repos.instances.release('ingest', 'art_1');
    expect(b.repos.instances.claim('ingest', 'art_1', 'now')).toBe(true);
  });

  it('an instance silent past its lease is removed at the next heartbeat of another, which takes its work and interrupts its answers', () => {
    const takenOver: string[] = [];
    const a = instance('inst_a');
    const b = instance('inst_b', {
      takeOver: () => {
        b.repos.messages.markInterrupted('the instance stopped', new Date(clock).toISOString());
        if (b.repos.instances.claim('ingest', 'art_1', 'now')) takenOver.push('art_1');
      },
    });
    a.repos.instances.claim('ingest', 'art_1', 'now');
    streamingAnswer(a.repos, 'msg_a');

    // Within the lease, A is alive though it has not beaten: nothing changes hands.
    clock += timing.leaseMs - 1;
    b.beat();
    expect(takenOver).toEqual([]);
    expect(b.repos.messages.get('msg_a')?.status).toBe('streaming');

    // Past it, A is presumed dead: its claim and its answer are B's to settle.
    clock += 2;
    b.beat();
    expect(takenOver).toEqual(['art_1']);
    expect(b.repos.messages.get('msg_a')).toMatchObject({ status: 'interrupted', content: 'partial', error_code: 'unavailable' });
    expect(b.warnings.join('\n')).toMatch(/Instance inst_a \(host-a, pid 4242\) was silent for over 5 s: its work is taken over/);
    expect(b.repos.instances.list().map((r) => r.id)).toEqual(['inst_b']);

    // A comes back: it joins again, says so, and what B took stays B's.
    a.beat();
    expect(a.warnings.join('\n')).toMatch(/inst_a\) was silent longer than 5 s .* joins again/);
    expect(a.repos.instances.list().map((r) => r.id).sort()).toEqual(['inst_a', 'inst_b']);
    expect(a.repos.instances.claim('ingest', 'art_1', 'now')).toBe(false);
  });

  it("a process gone from the instance's own host is removed at once, without waiting for the lease", () => {
    const a = instance('inst_a', { pid: 1111 });
    a.repos.instances.claim('download', 'dl_1', 'now');
    const b = instance('inst_b', { pid: 2222, alive: (pid) => pid !== 1111 });
    expect(b.repos.instances.list().map((r) => r.id)).toEqual(['inst_b']);
    expect(b.repos.instances.claim('download', 'dl_1', 'now')).toBe(true);
  });

  it('on a database only one server opens (SQLite), the previous run is gone at start, but a live joining process is not', () => {
    const previous = instance('inst_old');
    streamingAnswer(previous.repos, 'msg_old');
    const joiner = instance('inst_mcp', { recovers: false });
    streamingAnswer(joiner.repos, 'msg_mcp');
    const next = instance('inst_new', { exclusive: true });
    expect(next.repos.instances.list().map((r) => r.id).sort()).toEqual(['inst_mcp', 'inst_new']);
    next.repos.messages.markInterrupted('stopped', new Date(clock).toISOString());
    expect(next.repos.messages.get('msg_old')?.status).toBe('interrupted');
    expect(next.repos.messages.get('msg_mcp')?.status).toBe('streaming');
  });

  it('where one server opens the database (SQLite), the take-over runs only once a process is gone, not every heartbeat', () => {
    let takeOvers = 0;
    let joinerAlive = true;
    instance('inst_mcp', { recovers: false, pid: 7 });
    const server = instance('inst_srv', { exclusive: true, pid: 8, alive: (pid) => pid !== 7 || joinerAlive, takeOver: () => takeOvers++ });
    server.beat();
    expect(takeOvers).toBe(0);
    joinerAlive = false;
    server.beat();
    expect(takeOvers).toBe(1);
  });

  it('a comparison another live instance writes is not marked interrupted when read here', () => {
    const a = instance('inst_a');
    const b = instance('inst_b');
    const now = new Date(clock).toISOString();
    seedUser(a.repos);
    a.repos.comparisons.insert({ id: 'cmp_1', user_id: 'usr_1', organization_id: 'org_1', prompt: 'p', blind: false, dataset_ids: [], now });
    a.repos.comparisons.insertResponse({ id: 'rsp_1', comparison_id: 'cmp_1', position: 0, model_id: 'm', model_name: 'M', now });
    expect(b.repos.comparisons.markInterrupted('cmp_1', 'stopped', now)).toBe(0);
    a.membership.leave();
    expect(b.repos.comparisons.markInterrupted('cmp_1', 'stopped', now)).toBe(1);
  });

  it('a file cancelled through one instance stays cancelled when the parse another instance runs ends after', () => {
    const a = instance('inst_a');
    const b = instance('inst_b');
    seedUser(a.repos);
    const now = new Date(clock).toISOString();
    const db = openDatabase(join(dir.dir, 'parley.db'));
    open.push(db);
    db.prepare("INSERT INTO datasets (id, organization_id, owner_id, name, created_at, updated_at) VALUES ('ds_1', 'org_1', 'usr_1', 'd', ?, ?)").run(now, now);
    db.prepare("INSERT INTO knowledge_bases (id, dataset_id, backend, created_at) VALUES ('kb_1', 'ds_1', 'database', ?)").run(now);
    a.repos.artifacts.insert({ id: 'art_1', kb_id: 'kb_1', key: 'a.txt', filename: 'a.txt', declared_mime_type: null, size: 1, part_size: 1, upload_id: null, user_id: 'usr_1', status: 'processing', now });
    b.repos.artifacts.setStatus('art_1', 'failed', now, { code: 'cancelled', detail: 'Processing was cancelled.' });
    a.repos.artifacts.setReady('art_1', { mime_type: 'text/plain', chunk_count: 1, metadata: {}, now });
    expect(a.repos.artifacts.get('art_1')).toMatchObject({ status: 'failed', error_code: 'cancelled' });
  });

  it('leaving frees every claim at once', () => {
    const a = instance('inst_a');
    const b = instance('inst_b');
    a.repos.instances.claim('folder', 'fld_1', 'now');
    expect(b.repos.instances.claim('folder', 'fld_1', 'now')).toBe(false);
    a.membership.leave();
    expect(b.repos.instances.claim('folder', 'fld_1', 'now')).toBe(true);
  });
});

describe('instance timing from the environment', () => {
  it('takes sound values, and falls back to the defaults with a warning otherwise', () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m) };
    expect(instanceTimingFromEnv({}, log)).toEqual({ heartbeatMs: 10_000, leaseMs: 60_000 });
    expect(instanceTimingFromEnv({ PARLEY_INSTANCE_HEARTBEAT_MS: '200', PARLEY_INSTANCE_LEASE_MS: '1000' }, log)).toEqual({ heartbeatMs: 200, leaseMs: 1000 });
    expect(warnings).toEqual([]);
    expect(instanceTimingFromEnv({ PARLEY_INSTANCE_HEARTBEAT_MS: '5000', PARLEY_INSTANCE_LEASE_MS: '6000' }, log)).toEqual({ heartbeatMs: 10_000, leaseMs: 60_000 });
    expect(instanceTimingFromEnv({ PARLEY_INSTANCE_LEASE_MS: 'soon' }, log)).toEqual({ heartbeatMs: 10_000, leaseMs: 60_000 });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/lease at least three heartbeats/);
  });
});
