/**
 * Issue 13: domains do not import each other in circles (threads ↔ workflows did, through their
 * handlers), and nothing in main/ loads modules in a circle at run time. Lint keeps handlers.ts from
 * being imported across domains (eslint.config.js); this reads the real import graph.
 */
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../support/import-graph.js';

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
});
