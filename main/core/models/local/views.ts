import { basename } from 'node:path';
import { Capabilities } from '../../../../shared/operations/models-schema.js';
import type { LocalModelInfo } from '../../../../shared/operations/local-models-schema.js';
import type { Model } from '../../../../shared/operations/models.js';
import type { Context, ContextSlice } from '../../platform/context.js';
import type { FoundFile } from './discovery.js';
import { contextSizeFor } from './engine.js';
import { callerIs } from '../../platform/auth/roles.js';

/** Local models answer more slowly and plainly than hosted frontier models, but free and private. */
export const LOCAL_QUALITY = 3;

const isAdmin = (ctx: Pick<Context, 'caller'>) => callerIs(ctx, 'admin');

export interface LocalSource {
  id: string;
  name: string;
  path: string;
  created_at: string;
  /** The file as last read; null when it is gone. */
  file: FoundFile | null;
  found_in: LocalModelInfo['found_in'];
  /** Capabilities stored at registration (models added by path); derived from the header otherwise. */
  capabilities?: Capabilities;
}

/** Capabilities of a local model from its header: free, private, its context, a modest quality. */
export function localCapabilities(ctx: Pick<Context, 'config'>, file: FoundFile | null): Capabilities {
  const header = file?.header;
  return Capabilities.parse({
    strengths: header?.pooling ? ['retrieval'] : ['general'],
    context_tokens: header ? contextSizeFor(ctx.config().local_models, header) : 4096,
    quality: LOCAL_QUALITY,
    local: true,
  });
}

/** Why the model cannot run, or null: the file is gone or not GGUF, or llama.cpp cannot run here, or it failed to load. */
function localState(ctx: ContextSlice<never, 'local'>, source: LocalSource): Pick<LocalModelInfo, 'state' | 'error'> {
  if (!source.file) return { state: 'failed', error: 'The file is gone (moved or deleted).' };
  if (source.file.error) return { state: 'failed', error: source.file.error };
  // Discovery skips projectors; one added by path is listed, and never routed to.
  if (source.file.header?.projector) return { state: 'failed', error: 'This is a vision projector (mmproj), a companion of a vision model: it cannot answer on its own.' };
  const { state, error } = ctx.runtime.local.engine.state(source.path);
  return error ? { state, error } : { state };
}

export function localModelView(ctx: ContextSlice<'config' | 'caller', 'local'>, source: LocalSource, status: Model['status']): Model {
  const { file } = source;
  const state = localState(ctx, source);
  return {
    id: source.id,
    name: source.name,
    kind: 'builtin',
    provider: 'llama_cpp',
    model: basename(source.path),
    endpoint_url: null,
    base_model: null,
    capabilities: source.capabilities ?? localCapabilities(ctx, file),
    status: state.state === 'failed' ? 'unavailable' : status,
    has_api_key: false,
    created_at: source.created_at,
    local: {
      path: isAdmin(ctx) ? source.path : null,
      size_bytes: file?.size_bytes ?? 0,
      architecture: file?.header?.architecture ?? null,
      quantization: file?.header?.quantization ?? null,
      context_length: file?.header?.context_length ?? null,
      ...state,
      purpose: file?.header?.pooling ? 'embedding' : 'chat',
      found_in: source.found_in,
    },
  };
}

/** The discovered files as sources (a file also registered by path is listed once, as registered). */
export function discoveredSources(ctx: ContextSlice<never, 'local'>, registeredPaths: Set<string>): LocalSource[] {
  return ctx.runtime.local
    .files()
    .filter((f) => !registeredPaths.has(f.path))
    .map((f) => ({ id: f.id, name: f.name, path: f.path, created_at: f.modified_at, file: f, found_in: f.found_in }));
}
