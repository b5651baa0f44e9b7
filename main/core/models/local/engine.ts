import { availableParallelism } from 'node:os';
import { importEsm } from '../../platform/esm-import.js';
import type { Config } from '../../../../shared/config.js';
import type { GgufHeader } from './gguf-header.js';
import { EmbeddingPool, embeddingContextCount } from './embedding-pool.js';
import { sampledFreeMemory, type FreeMemory } from './memory.js';
import type { Logger } from '../../platform/logger.js';
import type { LocalState, Resident } from '../../platform/ports/local-models.js';
import { errorText } from '../../../../shared/errors.js';

/**
 * llama.cpp in-process, through node-llama-cpp — an optional dependency imported on first use, so
 * Parley starts and works without it; a missing or broken native binary makes local models
 * `unavailable` with the reason, never a crash.
 *
 * One loaded model serves every thread: its context holds `[local_models] parallel` sequences, one
 * per answer being written; further answers wait for a free one, first come first served. A model
 * nobody used for `idle_unload_seconds` is unloaded (its memory freed) and loads again on next use.
 *
 * At most `[local_models] max_loaded` chat models are loaded at once (embedding models do not
 * count): loading another first unloads the least recently used one that is not writing an answer.
 * When every loaded one is writing, an answer waits (cancellable) until one of them is done, while
 * an explicit load (`POST /models/{id}/load`, no answer waiting on it) fails at once as `busy`.
 */

type Lib = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<Lib['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
export type LlamaContextSequence = ReturnType<LlamaContext['getSequence']>;
export type ChatWrapper = import('node-llama-cpp').ChatWrapper;

export type { LocalState, Resident };

/** A failure a caller sees as it is: not GGUF, unsupported, out of memory, no runtime. */
export class LocalModelError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'failed' | 'busy',
    message: string,
  ) {
    super(message);
    this.name = 'LocalModelError';
  }
}

/** Timers the idle unload runs on; tests pass fakes. */
export interface IdleTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: IdleTimers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface EngineOptions {
  config: () => Config;
  /** How node-llama-cpp is imported; tests may point it at a broken module. */
  importLibrary?: () => Promise<Lib>;
  timers?: IdleTimers;
  log?: Logger | undefined;
  /** Available memory in bytes, read without I/O; tests pass a fixed figure. */
  freeMemory?: FreeMemory;
  /** After a model's state, its users or the runtime's availability changed (the model's process reports it to the main one). */
  onChange?: () => void;
}

/** Half the cores, 1 to 8: llama.cpp's own default (all cores, at least 4) is far slower on small machines, where the threads fight. */
export function defaultThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(8, Math.floor(cores / 2)));
}

/** The context size for a model: the configured one, or the model's own capped at 8192 (never below 512). */
export function contextSizeFor(config: Config['local_models'], header: Pick<GgufHeader, 'context_length'>): number {
  const wanted = config.context_size > 0 ? config.context_size : Math.min(header.context_length ?? 4096, 8192);
  return Math.max(512, wanted);
}

interface Slot {
  sequence: LlamaContextSequence;
  /** The model's chat format, resolved once at load (from the GGUF's template; a generic one otherwise). */
  chatWrapper: ChatWrapper;
  release: () => void;
}

interface Entry {
  path: string;
  header: GgufHeader;
  state: LocalState;
  error: string | null;
  loading: Promise<void> | null;
  model: LlamaModel | null;
  context: LlamaContext | null;
  chatWrapper: ChatWrapper | null;
  embedding: EmbeddingPool | null;
  /** Answers (or embedding batches) using the model now. */
  active: number;
  /** Answers waiting for a free sequence, oldest first; a cancelled one leaves the queue at once. */
  waiters: Waiter[];
  idle: unknown;
  /** When it was last used, on the engine's own counter: the least recently used is unloaded first. */
  lastUsed: number;
}

interface Waiter {
  signal: AbortSignal;
  wake: () => void;
}

const cancelled = () => new LocalModelError('failed', 'Cancelled while waiting for the model.');

/** Waits for `wake`, or rejects when `signal` aborts; `enqueue` returns how to leave the queue. */
function waitOrAbort(signal: AbortSignal, enqueue: (wake: () => void) => () => void): Promise<void> {
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<void>((resolve, reject) => {
    const leave = enqueue(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = () => {
      leave();
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const KNOWN_FAILURES: [RegExp, (m: string) => string][] = [
  [/unknown model architecture:?\s*'?([\w.-]+)'?/i, (m) => `Its architecture is not supported by this llama.cpp (${m}).`],
  [/insufficient|out of memory|failed to allocate|not enough memory/i, (m) => `Not enough memory to load it (${m}).`],
];

export class LocalEngine {
  private runtime: Promise<{ lib: Lib; llama: Llama }> | null = null;
  private unavailable: string | null = null;
  private readonly entries = new Map<string, Entry>();
  private readonly timers: IdleTimers;
  /** Loads waiting for a loaded chat model to finish its answers, so it can be unloaded for them. */
  private readonly roomWaiters = new Set<() => void>();
  private uses = 0;
  readonly freeMemory: FreeMemory;

  constructor(private readonly options: EngineOptions) {
    this.timers = options.timers ?? realTimers;
    this.freeMemory = options.freeMemory ?? sampledFreeMemory();
  }

  /** The chat models loaded or loading now. */
  residents(): Resident[] {
    const out: Resident[] = [];
    for (const e of this.entries.values()) {
      if (!e.header.pooling && (e.state === 'loaded' || e.state === 'loading')) out.push({ path: e.path, active: e.active, last_used: e.lastUsed });
    }
    return out;
  }

  /** Why local models cannot run here (node-llama-cpp missing or broken), or null (fine, or not tried yet). */
  unavailableReason(): string | null {
    return this.unavailable;
  }

  /** Loads the library and llama.cpp's native binary once; remembers a failure. */
  probe(): Promise<{ lib: Lib; llama: Llama }> {
    this.runtime ??= (async () => {
      try {
        const lib = await (this.options.importLibrary ?? (() => importEsm<Lib>('node-llama-cpp')))();
        const gpu = this.options.config().local_models.gpu;
        // build: never — no compiler runs and nothing is downloaded at run time: prebuilt binaries only.
        const llama = await lib.getLlama({ gpu: gpu === false ? false : 'auto', build: 'never', logLevel: lib.LlamaLogLevel.error, progressLogs: false });
        return { lib, llama };
      } catch (error) {
        this.unavailable = `Local models cannot run here: node-llama-cpp or its llama.cpp binary could not be loaded (${errorText(error)}).`;
        this.options.onChange?.();
        throw new LocalModelError('unavailable', this.unavailable);
      }
    })();
    return this.runtime;
  }

  /** Every model's state and the residents at once: what the model's process reports to the main one. */
  snapshot(): { unavailable: string | null; states: Record<string, { state: LocalState; error: string | null }>; residents: Resident[] } {
    const states: Record<string, { state: LocalState; error: string | null }> = {};
    for (const path of this.entries.keys()) states[path] = this.state(path);
    return { unavailable: this.unavailable, states, residents: this.residents() };
  }

  state(path: string): { state: LocalState; error: string | null } {
    const entry = this.entries.get(path);
    if (this.unavailable) return { state: 'failed', error: this.unavailable };
    return entry ? { state: entry.state, error: entry.error } : { state: 'unloaded', error: null };
  }

  private entry(path: string, header: GgufHeader): Entry {
    let entry = this.entries.get(path);
    if (!entry) {
      entry = { path, header, state: 'unloaded', error: null, loading: null, model: null, context: null, chatWrapper: null, embedding: null, active: 0, waiters: [], idle: null, lastUsed: 0 };
      this.entries.set(path, entry);
    }
    entry.header = header;
    return entry;
  }

  /**
   * Loads the model (once; concurrent callers share the load). A failure leaves it `failed` with the
   * reason. To stay within `max_loaded`, the least recently used idle chat model is unloaded first;
   * when all are writing, a load with `signal` (an answer) waits for one, one without fails as `busy`.
   */
  async load(path: string, header: GgufHeader, signal?: AbortSignal): Promise<void> {
    const entry = this.entry(path, header);
    if (header.projector) throw new LocalModelError('failed', 'This is a vision projector (mmproj), a companion of a vision model: it cannot answer on its own.');
    // Checking for room and starting the load happen in one synchronous step, so two loads never both take the last place.
    while (!entry.loading) {
      if (entry.state === 'loaded') return;
      const room = header.pooling ? { others: [], max: Infinity } : this.room(entry);
      if (room.others.length < room.max) {
        entry.loading = this.doLoad(entry).finally(() => {
          entry.loading = null;
          this.wakeRoomWaiters();
        });
        break;
      }
      await this.makeRoom(entry, room.others, room.max, signal);
    }
    await entry.loading;
    // The load above changed the state; TypeScript cannot see that.
    if ((entry.state as LocalState) !== 'loaded') throw new LocalModelError('failed', entry.error ?? 'The model could not be loaded.');
  }

  private async doLoad(entry: Entry): Promise<void> {
    entry.state = 'loading';
    entry.error = null;
    this.options.onChange?.();
    try {
      const { lib, llama } = await this.probe();
      // llama.cpp's own message for this is only logged; say it plainly.
      // GgufArchitectureType is a real object at run time; its typings declare a const enum.
      const known: string[] = Object.values((lib as unknown as { GgufArchitectureType: Record<string, string> }).GgufArchitectureType);
      if (!known.includes(entry.header.architecture)) {
        throw new LocalModelError('failed', `Its architecture (${entry.header.architecture}) is not supported by this version of llama.cpp.`);
      }
      const cfg = this.options.config().local_models;
      const threads = cfg.threads > 0 ? cfg.threads : defaultThreads();
      const model = await llama.loadModel({ modelPath: entry.path, ...(cfg.gpu === false ? { gpuLayers: 0 } : {}) });
      try {
        if (entry.header.pooling) {
          const count = embeddingContextCount(cfg, availableParallelism());
          entry.embedding = await EmbeddingPool.create(model, { count, contextSize: contextSizeFor(cfg, entry.header), trainedLength: entry.header.context_length });
        } else {
          entry.context = await model.createContext({ contextSize: contextSizeFor(cfg, entry.header), sequences: cfg.parallel, threads });
          // Resolving it takes seconds (templates are rendered and compared): once per load, not per answer.
          try {
            entry.chatWrapper = lib.resolveChatWrapper(model);
          } catch (error) {
            this.options.log?.warn(`local model ${entry.path}: its chat template could not be used (${errorText(error)}); a generic chat format is used`);
            entry.chatWrapper = new lib.GeneralChatWrapper();
          }
        }
      } catch (error) {
        await model.dispose();
        throw error;
      }
      entry.model = model;
      entry.state = 'loaded';
      this.scheduleIdle(entry);
    } catch (error) {
      entry.state = 'failed';
      entry.error = error instanceof LocalModelError ? error.message : describeLoadFailure(error);
      this.options.log?.warn(`local model ${entry.path}: ${entry.error}`);
    }
    this.options.onChange?.();
  }

  /** The other chat models loaded or loading, and how many may be. */
  private room(entry: Entry): { others: Entry[]; max: number } {
    const others = [...this.entries.values()].filter((e) => e !== entry && !e.header.pooling && (e.state === 'loaded' || e.state === 'loading'));
    return { others, max: this.options.config().local_models.max_loaded };
  }

  /** Unloads the least recently used idle one of `others`; with none idle, waits (or, with no answer waiting, refuses). */
  private async makeRoom(entry: Entry, others: Entry[], max: number, signal: AbortSignal | undefined): Promise<void> {
    const idle = others.filter((e) => e.state === 'loaded' && e.active === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (idle) {
      this.options.log?.info(`local model ${idle.path}: unloaded to load ${entry.path} ([local_models] max_loaded = ${max})`);
      await this.dispose(idle);
      return;
    }
    if (!signal) {
      throw new LocalModelError('busy', `${others.length} local model(s) are loaded and writing answers ([local_models] max_loaded = ${max}); load this one when one of them is done.`);
    }
    await waitOrAbort(signal, (wake) => {
      this.roomWaiters.add(wake);
      return () => this.roomWaiters.delete(wake);
    });
  }

  /** Loads waiting for room look again (each re-checks; one that finds none waits again). */
  private wakeRoomWaiters(): void {
    const waiters = [...this.roomWaiters];
    this.roomWaiters.clear();
    for (const wake of waiters) wake();
  }

  /** Frees the model's memory. Refused while answers are being written with it. */
  async unload(path: string): Promise<void> {
    const entry = this.entries.get(path);
    if (!entry) return;
    if (entry.loading) await entry.loading.catch(() => {});
    if (entry.active > 0) throw new LocalModelError('busy', `The model is writing ${entry.active} answer(s); unload it when they are done.`);
    await this.dispose(entry);
    this.wakeRoomWaiters();
  }

  private async dispose(entry: Entry): Promise<void> {
    if (entry.idle !== null) this.timers.clear(entry.idle);
    entry.idle = null;
    const { model, context, embedding } = entry;
    entry.model = null;
    entry.context = null;
    entry.chatWrapper = null;
    entry.embedding = null;
    // A failed model stays failed (with its reason) until it is loaded again.
    if (entry.state !== 'failed') entry.state = 'unloaded';
    this.options.onChange?.();
    await context?.dispose().catch(() => {});
    await embedding?.dispose().catch(() => {});
    await model?.dispose().catch(() => {});
  }

  private scheduleIdle(entry: Entry): void {
    if (entry.idle !== null) this.timers.clear(entry.idle);
    entry.idle = null;
    const seconds = this.options.config().local_models.idle_unload_seconds;
    if (seconds <= 0 || entry.active > 0 || entry.state !== 'loaded') return;
    entry.idle = this.timers.set(() => {
      entry.idle = null;
      if (entry.active === 0 && entry.state === 'loaded') void this.dispose(entry);
    }, seconds * 1000);
  }

  private begin(entry: Entry): void {
    entry.active++;
    entry.lastUsed = ++this.uses;
    if (entry.idle !== null) this.timers.clear(entry.idle);
    entry.idle = null;
    this.options.onChange?.();
  }

  private end(entry: Entry): void {
    entry.active--;
    entry.lastUsed = ++this.uses;
    this.scheduleIdle(entry);
    this.options.onChange?.();
    if (entry.active === 0) this.wakeRoomWaiters();
  }

  /** Wakes the oldest answer still waiting for a sequence of `entry` (cancelled ones have left the queue). */
  private wakeNext(entry: Entry): void {
    for (let waiter = entry.waiters.shift(); waiter; waiter = entry.waiters.shift()) {
      if (waiter.signal.aborted) continue;
      waiter.wake();
      return;
    }
  }

  /** Waits in `entry`'s queue: at the back when arriving, at the front when woken and beaten to the sequence. */
  private waitTurn(entry: Entry, signal: AbortSignal, front: boolean): Promise<void> {
    return waitOrAbort(signal, (wake) => {
      const waiter = { signal, wake };
      if (front) entry.waiters.unshift(waiter);
      else entry.waiters.push(waiter);
      return () => {
        const at = entry.waiters.indexOf(waiter);
        if (at >= 0) entry.waiters.splice(at, 1);
      };
    });
  }

  /**
   * A context sequence of the (lazily loaded) model for one answer; waits while all `parallel`
   * sequences are writing. `release()` returns it; call it exactly once.
   */
  async acquire(path: string, header: GgufHeader, signal: AbortSignal): Promise<Slot> {
    const entry = this.entry(path, header);
    this.begin(entry);
    try {
      await this.load(path, header, signal);
      const { context, chatWrapper } = entry;
      if (!context || !chatWrapper) throw new LocalModelError('failed', 'This is an embedding model: it cannot write answers.');
      // Behind answers already waiting, even when a sequence is free: it is promised to the first of them.
      if (context.sequencesLeft === 0 || entry.waiters.length > 0) await this.waitTurn(entry, signal, false);
      // Woken, but the sequence went elsewhere (an unload and reload, say): wait again, still first in line.
      while (context.sequencesLeft === 0) await this.waitTurn(entry, signal, true);
      const sequence = context.getSequence();
      // More free sequences than this answer needs: the next in line need not wait for a release.
      if (context.sequencesLeft > 0) this.wakeNext(entry);
      let released = false;
      return {
        sequence,
        chatWrapper,
        release: () => {
          if (released) return;
          released = true;
          this.end(entry);
          // llama.cpp reclaims the sequence asynchronously: the next answer is woken once it is free again.
          void sequence
            .dispose()
            .catch(() => {})
            .then(() => this.wakeNext(entry));
        },
      };
    } catch (error) {
      this.end(entry);
      throw error;
    }
  }

  /** Embeds texts with a (lazily loaded) embedding model, spread over its contexts, cut to its trained length. */
  async embed(path: string, header: GgufHeader, texts: string[]): Promise<number[][]> {
    const entry = this.entry(path, header);
    this.begin(entry);
    try {
      await this.load(path, header);
      const pool = entry.embedding;
      if (!pool) throw new LocalModelError('failed', 'This is a chat model, not an embedding model.');
      return await pool.embed(texts);
    } finally {
      this.end(entry);
    }
  }

  /** Unloads everything (shutdown). */
  async close(): Promise<void> {
    for (const entry of this.entries.values()) {
      entry.active = 0;
      await this.dispose(entry);
    }
  }
}

function describeLoadFailure(error: unknown): string {
  const text = errorText(error);
  if (error instanceof Error && error.name === 'InsufficientMemoryError') return `Not enough memory to load it (${text}).`;
  for (const [pattern, say] of KNOWN_FAILURES) if (pattern.test(text)) return say(text);
  return `llama.cpp could not load it: ${text}`;
}
