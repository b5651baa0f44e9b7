import { API_RELEASES } from '../../../shared/api-version.js';
import { oidcSummary } from '../platform/auth/oidc/flow.js';
import type { ContextSlice } from '../platform/context.js';
import type { Handlers } from '../platform/operation-handlers.js';

/** Alive, on which database, and which instance answered (behind a reverse proxy, one of several). */
export const health = (ctx: ContextSlice<never, 'storage'>) => ({ status: 'ok' as const, storage: ctx.runtime.storage.kind, instance: ctx.runtime.storage.instance });

export const version = (ctx: ContextSlice<'appVersion'>) => ({ version: ctx.appVersion, api_releases: [...API_RELEASES] });

/** The default look (`[ui] theme`), read on every call so a saved configuration applies at the next page load. */
export function ui(ctx: ContextSlice<'config'>) {
  const oidc = oidcSummary(ctx.config());
  return { theme: ctx.config().ui.theme, oidc: oidc && { name: oidc.name, start_url: '/api/auth/oidc/start' } };
}

/** The effective feature flags, for every signed-in user. */
export const features = (ctx: ContextSlice<'config'>) => ctx.config().features;

/** The local HTTP server: where it listens now (null when it does not), and what the saved configuration asks of it. */
export function server(ctx: ContextSlice<'config', 'baseUrl' | 'mode' | 'serverProblem'>) {
  const { enabled, port } = ctx.config().server;
  return { url: ctx.runtime.baseUrl(), enabled, port, mode: ctx.runtime.mode, problem: ctx.runtime.serverProblem() };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const statusHandlers: Pick<Handlers, 'service.health' | 'service.version' | 'service.ui' | 'features.get' | 'service.server'> = {
  'service.health': health,
  'service.version': version,
  'service.ui': ui,
  'features.get': features,
  'service.server': server,
};
