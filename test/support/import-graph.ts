import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Relative imports and re-exports of every .ts file under `root`, resolved to repository paths.
 * `runtime`: only the ones that load a module when run (not `import type`, erased at build).
 */
export function importGraph(root: string, options: { runtime?: boolean; base?: string } = {}): Map<string, string[]> {
  const base = options.base ?? process.cwd();
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const text = readFileSync(path, 'utf8');
        const targets: string[] = [];
        for (const match of text.matchAll(/^\s*(?:import|export)\s([^'"]*?)from\s+'(\.{1,2}\/[^']+)'/gm)) {
          if (options.runtime && /^type\s/.test(match[1] ?? '')) continue;
          const spec = match[2] ?? '';
          targets.push(relative(base, resolve(dirname(path), spec.replace(/\.js$/, '.ts'))));
        }
        graph.set(relative(base, path), targets);
      }
    }
  };
  walk(resolve(base, root));
  return graph;
}

/** Every cycle found by a depth-first walk, each as the files along it (first repeated last). */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** The core's wings, bottom to top: a file may import its own wing and those below, never one above. */
export const WINGS = ['platform', 'models', 'knowledge', 'answering', 'conversation', 'service'] as const;

/** Where a file sits: `db` and `search` below the core, then the wings in order; null outside them. */
export function layerOf(file: string): { rank: number; name: string } | null {
  const parts = file.split('/');
  if (parts[0] !== 'main') return null;
  if (parts[1] === 'db') return { rank: -2, name: 'db' };
  if (parts[1] === 'search') return { rank: -1, name: 'search' };
  if (parts[1] !== 'core') return null;
  const rank = WINGS.indexOf(parts[2] as (typeof WINGS)[number]);
  return rank < 0 ? null : { rank, name: parts[2] ?? '' };
}

/**
 * The domain a file belongs to: `wing/folder` in the core (a loose file in a wing is a domain of
 * its own, named after it; answering is one module), the package elsewhere (`search`, `db`).
 */
export function domainOf(file: string): string | null {
  const layer = layerOf(file);
  if (!layer) return null;
  if (layer.rank < 0 || layer.name === 'answering') return layer.name;
  return `${layer.name}/${(file.split('/')[3] ?? '').replace(/\.ts$/, '')}`;
}

/** Imports that run against the layers' direction, as `from -> to`. */
export function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(from);
    for (const to of targets) {
      const b = layerOf(to);
      if (a && b && b.rank > a.rank) found.push(`${from} -> ${to}`);
    }
  }
  return found;
}

/** The domain graph: which domain imports which (and through which file, for the message). */
export function domainEdges(graph: Map<string, string[]>): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [from, targets] of graph) {
    const a = domainOf(from);
    for (const to of targets) {
      const b = domainOf(to);
      if (!a || !b || a === b) continue;
      const out = edges.get(a) ?? new Map<string, string>();
      edges.set(a, out);
      if (!out.has(b)) out.set(b, `${from} -> ${to}`);
    }
  }
  return edges;
}

/** Pairs of domains that import each other, each with one import of either way. */
export function mutualDomains(graph: Map<string, string[]>): string[] {
  const edges = domainEdges(graph);
  const found: string[] = [];
  for (const [a, out] of edges) {
    for (const [b, why] of out) if (a < b && edges.get(b)?.has(a)) found.push(`${a} <-> ${b}: ${why}; ${edges.get(b)?.get(a)}`);
  }
  return found;
}

/** Every relative import of main/core, main/search and main/db, types included. */
export function mainGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const root of ['main/core', 'main/search', 'main/db']) {
    if (!existsSync(root)) continue;
    for (const [file, targets] of importGraph(root)) graph.set(file, targets);
  }
  return graph;
}
