import { ServiceError } from '../../../../shared/errors.js';
import type { AuthoredConfigVersionRecord } from '../../../db/repositories/config-versions.js';
import { setTomlValues } from '../../platform/config/edit.js';
import { parseConfig } from '../../../../shared/config-parse.js';
import { commitVersion, syncFromFile, type ConfigStore } from '../../platform/config/save.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/** What reading the configuration uses: its versions, the clock (a hand edit is caught up with) and the live configuration. */
type ConfigCtx = ContextSlice<'repos' | 'now', 'liveConfig' | 'serverProblem'>;
/** Editing it also names its author. */
type ConfigEditCtx = AuthedSlice<'repos' | 'now', 'liveConfig' | 'serverProblem'>;

function storeOf(ctx: ContextSlice<'repos', 'liveConfig'>): ConfigStore {
  return { repos: ctx.repos, live: ctx.runtime.liveConfig };
}

const author = (row: AuthoredConfigVersionRecord) => (row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null);

/** The version in force, what of it waits for a restart, and what is wrong with the file on disk. */
function configState(ctx: ContextSlice<'repos', 'liveConfig' | 'serverProblem'>) {
  const live = ctx.runtime.liveConfig;
  const row = ctx.repos.configVersions.get(live.version());
  return {
    toml: live.toml(),
    version: live.version(),
    // Version 0: the file was invalid from the very first start, so the defaults are in force.
    updated_at: row?.created_at ?? live.loadedAt,
    updated_by: row ? author(row) : null,
    source: row?.source ?? ('default' as const),
    restart_required: live.restartRequired(),
    file_problems: live.fileProblems(),
    server_problem: ctx.runtime.serverProblem(),
  };
}

/** Catches up with a hand edit first, so that the answer (and a stale base_version) reflect the file. */
function synced(ctx: ContextSlice<'repos' | 'now', 'liveConfig'>): ConfigStore {
  const store = storeOf(ctx);
  syncFromFile(store, isoNow(ctx));
  return store;
}

/**
 * The one path every edit takes: the same text as in force changes nothing; otherwise validated
 * (422 with where each problem is written), checked against the version the edit started from
 * (409), then stored, written and applied.
 */
function save(ctx: ConfigEditCtx, store: ConfigStore, toml: string, baseVersion: number) {
  const { live } = store;
  if (toml === live.toml()) return configState(ctx);
  const parsed = parseConfig(toml);
  if (!parsed.ok) {
    const first = parsed.errors[0];
    const where = first?.line ? ` (line ${first.line}, column ${first.column ?? 1})` : '';
    const more = parsed.errors.length > 1 ? ` and ${parsed.errors.length - 1} more problem(s)` : '';
    throw new ServiceError('unprocessable', `The configuration is not valid: ${first?.path ? `${first.path}: ` : ''}${first?.message ?? 'invalid'}${where}${more}.`, parsed.errors);
  }
  if (baseVersion !== live.version()) {
    throw new ServiceError('conflict', `The configuration changed since version ${baseVersion}: version ${live.version()} is in force. Reload it and edit again.`);
  }
  commitVersion(store, { toml, config: parsed.config, source: 'admin', created_by: ctx.caller.user.id, now: isoNow(ctx) });
  return configState(ctx);
}

export function getConfig(ctx: ConfigCtx) {
  synced(ctx);
  return configState(ctx);
}

export function putConfig(ctx: ConfigEditCtx, input: InputOf<'admin.config.put'>) {
  return save(ctx, synced(ctx), input.toml, input.base_version);
}

export function patchConfig(ctx: ConfigEditCtx, input: InputOf<'admin.config.patch'>) {
  const store = synced(ctx);
  return save(ctx, store, setTomlValues(store.live.toml(), input.values), input.base_version);
}

export function configHistory(ctx: ConfigCtx) {
  synced(ctx);
  return {
    data: ctx.repos.configVersions.list().map((row) => ({ version: row.version, created_at: row.created_at, created_by: author(row), source: row.source, toml: row.toml })),
  };
}

export function rollbackConfig(ctx: ConfigEditCtx, input: InputOf<'admin.config.rollback'>) {
  const store = synced(ctx);
  const row = ctx.repos.configVersions.get(input.version);
  if (!row) throw new ServiceError('not_found', `There is no configuration version ${input.version}.`);
  if (row.toml === store.live.toml()) return configState(ctx);
  // Stored versions were valid when saved; one the current schema refuses is refused again, not forced.
  const parsed = parseConfig(row.toml);
  if (!parsed.ok) throw new ServiceError('unprocessable', `Version ${input.version} is not valid for this version of Parley.`, parsed.errors);
  commitVersion(store, { toml: row.toml, config: parsed.config, source: 'rollback', created_by: ctx.caller.user.id, now: isoNow(ctx) });
  return configState(ctx);
}
