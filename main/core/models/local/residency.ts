import type { Config } from '../../../../shared/config.js';
import type { LocalFit } from '../routing/types.js';
import { contextSizeFor } from './engine.js';
import { estimateMemory } from './memory.js';
import type { LocalModelsPort } from '../../platform/ports/local-models.js';

/**
 * What routing weighs for a local chat model: loaded already, and if not, whether it would fit the
 * memory free now plus what loading it would free (the least recently used idle models unloaded to
 * stay within `max_loaded`). Built from headers read at scan time and the engine's own state: no
 * file is touched, so a routing decision stays far under a millisecond.
 */

/** Memory the model at `path` needs loaded with this configuration; null when its header is unknown. */
export function memoryNeeded(local: LocalModelsPort, path: string, cfg: Config['local_models']): number | null {
  const file = local.byPath(path);
  if (!file?.header) return null;
  return estimateMemory({
    weightsBytes: file.size_bytes,
    shape: file.header.shape,
    contextSize: contextSizeFor(cfg, file.header),
    sequences: cfg.parallel,
    embedding: file.header.pooling,
  }).total_bytes;
}

/** Routing's view of each local chat model in `paths` (ones whose header is unknown are left out). */
export function localFits(local: LocalModelsPort, paths: Iterable<string>, cfg: Config['local_models']): Map<string, LocalFit> {
  const engine = local.engine;
  const residents = engine.residents();
  const loaded = new Set(residents.map((r) => r.path));
  // Loading one more unloads the least recently used idle residents beyond max_loaded − 1; their memory comes back.
  const evicted = residents
    .filter((r) => r.active === 0)
    .sort((a, b) => a.last_used - b.last_used)
    .slice(0, Math.max(0, residents.length - (cfg.max_loaded - 1)));
  const reclaimed = evicted.reduce((sum, r) => sum + (memoryNeeded(local, r.path, cfg) ?? 0), 0);
  const available = engine.freeMemory() + reclaimed;

  const out = new Map<string, LocalFit>();
  for (const path of paths) {
    const file = local.byPath(path);
    const memory = memoryNeeded(local, path, cfg);
    if (!file || memory === null) continue;
    const isLoaded = loaded.has(path);
    out.set(path, { loaded: isLoaded, fits_memory: isLoaded || memory <= available, memory_bytes: memory, weights_bytes: file.size_bytes });
  }
  return out;
}
