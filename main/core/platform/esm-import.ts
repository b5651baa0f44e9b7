/**
 * `import()` of an ES-module-only package (node-llama-cpp) from code that may run inside served
 * mode's bundle. That bundle is run through `vm.Script` with a V8 code cache (main/launch/code-cache.ts),
 * and on Node 20 an `import()` compiled from that cache fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING
 * ("A dynamic import callback was not specified") even with `USE_MAIN_CONTEXT_DEFAULT_LOADER`: the first
 * start after a build worked and every later one could not load local models. So the launcher, an
 * ordinary ES module, hands its own `import()` over (`provideEsmImport`) and such imports go through it.
 */
const KEY = Symbol.for('parley.esmImport');

type EsmImport = (specifier: string) => Promise<unknown>;

export function provideEsmImport(esmImport: EsmImport): void {
  (globalThis as Record<symbol, unknown>)[KEY] = esmImport;
}

/** The module `specifier` names, through the launcher's `import()` where it provided one. */
export function importEsm<T>(specifier: string): Promise<T> {
  const provided = (globalThis as Record<symbol, unknown>)[KEY];
  return (typeof provided === 'function' ? (provided as EsmImport)(specifier) : import(specifier)) as Promise<T>;
}
