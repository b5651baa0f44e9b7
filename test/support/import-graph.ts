import { readdirSync, readFileSync } from 'node:fs';
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
