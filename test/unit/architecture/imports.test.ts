/**
 * Issue 13: domains do not import each other in circles (threads ↔ workflows did, through their
 * handlers), and nothing in main/ loads modules in a circle at run time. Lint keeps handlers.ts from
 * being imported across domains (eslint.config.js); this reads the real import graph.
 */
import { describe, expect, it } from 'vitest';
import { cycles, importGraph, mainGraph, mutualDomains, upwardImports } from '../../support/import-graph.js';

describe('imports', () => {
  it('the core has no import cycle, not even through types', () => {
    expect(cycles(importGraph('main/core'))).toEqual([]);
  });

  it('nothing in main/ loads modules in a circle when it runs', () => {
    expect(cycles(importGraph('main', { runtime: true }))).toEqual([]);
  });

  it('the walker finds a cycle where there is one (threads ↔ workflows as it was)', () => {
    const graph = new Map([
      ['threads/handlers.ts', ['workflows/apply.ts']],
      ['workflows/apply.ts', ['workflows/handlers.ts']],
      ['workflows/handlers.ts', ['threads/handlers.ts']],
    ]);
    expect(cycles(graph)).toEqual([['threads/handlers.ts', 'workflows/apply.ts', 'workflows/handlers.ts', 'threads/handlers.ts']]);
  });

  it('no import in main/core runs against the wings (platform < models < knowledge < answering < conversation < service), and search and db import no wing', () => {
    expect(upwardImports(mainGraph())).toEqual([]);
  });

  it('no two domains import each other, not even through types', () => {
    expect(mutualDomains(mainGraph())).toEqual([]);
  });

  it('the sweep sees an import running up where there is one', () => {
    const graph = new Map([
      ['main/core/platform/context.ts', ['main/core/answering/hub.ts']],
      ['main/core/models/providers/a.ts', ['main/core/models/local/b.ts']],
      ['main/core/models/local/b.ts', ['main/core/models/providers/shared-types.ts']],
      ['main/search/rank.ts', ['main/core/platform/ids.ts']],
    ]);
    expect(upwardImports(graph)).toEqual(['main/core/platform/context.ts -> main/core/answering/hub.ts', 'main/search/rank.ts -> main/core/platform/ids.ts']);
    expect(mutualDomains(graph)).toEqual([
      'models/local <-> models/providers: main/core/models/local/b.ts -> main/core/models/providers/shared-types.ts; main/core/models/providers/a.ts -> main/core/models/local/b.ts',
    ]);
  });
});
