import { availableParallelism } from 'node:os';
import { importEsm } from '../esm-import.js';
import type { Config } from '../../../shared/config.js';
import type { GgufHeader } from './gguf-header.js';
import type { Logger } from '../logger.js';
import { errorText } from '../../../shared/errors.js';

/**
 * llama.cpp in-process, through node-llama-cpp — an optional dependency imported on first use, so
 * Parley starts and works without it; a missing or broken native binary makes local models
 * `unavailable` with the reason, never a crash.
 *
 * One loaded model serves every thread: its context holds `[local_models] parallel` sequences, one
 * per answer being written; further answers wait for a free one. A model nobody used for
 * `idle_unload_seconds` is unloaded (its memory freed) and loads again on next use.
 */

type Lib = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<Lib['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaEmbeddingContext = Awaited<ReturnType<LlamaModel['createEmbeddingContext']>>;
export type LlamaContextSequence = ReturnType<LlamaContext['getSequence']>;
export type ChatWrapper = import('node-llama-cpp').ChatWrapper;

export type LocalState = 'unloaded' | 'loading' | 'loaded' | 'failed';

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
}

/** Half the cores, 1 to 8: llama.cpp's own default (all cores, at least 4) is far slower on small machines, where the threads fight. */
export function defaultThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(8, Math.floor(cores / 2)));
}

/** The context size for a model: the configured one, or the model's own capped at 8192 (never below 512). */
export function contextSizeFor(config: Config['local_models'], header: GgufHeader): number {
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
  embedding: LlamaEmbeddingContext | null;
  /** Answers (or embedding batches) using the model now. */
  active: number;
  waiters: (() => void)[];
  idle: unknown;
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

  constructor(private readonly options: EngineOptions) {
    this.timers = options.timers ?? realTimers;
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
        throw new LocalModelError('unavailable', this.unavailable);
      }
    })();
    return this.runtime;
  }

  state(path: string): { state: LocalState; error: string | null } {
    const entry = this.entries.get(path);
    if (this.unavailable) return { state: 'failed', error: this.unavailable };
    return entry ? { state: entry.state, error: entry.error } : { state: 'unloaded', error: null };
  }

  private entry(path: string, header: GgufHeader): Entry {
    let entry = this.entries.get(path);
    if (!entry) {
      entry = { path, header, state: 'unloaded', error: null, loading: null, model: null, context: null, chatWrapper: null, embedding: null, active: 0, waiters: [], idle: null };
      this.entries.set(path, entry);
    }
    entry.header = header;
    return entry;
  }

  /** Loads the model (once; concurrent callers share the load). A failure leaves it `failed` with the reason. */
  async load(path: string, header: GgufHeader): Promise<void> {
    const entry = this.entry(path, header);
    if (entry.state === 'loaded') return;
    entry.loading ??= this.doLoad(entry).finally(() => {
      entry.loading = null;
    });
    await entry.loading;
    // The load above changed the state; TypeScript cannot see that.
    if ((entry.state as LocalState) !== 'loaded') throw new LocalModelError('failed', entry.error ?? 'The model could not be loaded.');
  }

  private async doLoad(entry: Entry): Promise<void> {
    entry.state = 'loading';
    entry.error = null;
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
          entry.embedding = await model.createEmbeddingContext({ contextSize: contextSizeFor(cfg, entry.header), threads });
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
  }

  /** Frees the model's memory. Refused while answers are being written with it. */
  async unload(path: string): Promise<void> {
    const entry = this.entries.get(path);
    if (!entry) return;
    if (entry.loading) await entry.loading.catch(() => {});
    if (entry.active > 0) throw new LocalModelError('busy', `The model is writing ${entry.active} answer(s); unload it when they are done.`);
    await this.dispose(entry);
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
    if (entry.idle !== null) this.timers.clear(entry.idle);
    entry.idle = null;
  }

  private end(entry: Entry): void {
    entry.active--;
    this.scheduleIdle(entry);
  }

  /**
   * A context sequence of the (lazily loaded) model for one answer; waits while all `parallel`
   * sequences are writing. `release()` returns it; call it exactly once.
   */
  async acquire(path: string, header: GgufHeader, signal: AbortSignal): Promise<Slot> {
    const entry = this.entry(path, header);
    this.begin(entry);
    try {
      await this.load(path, header);
      const { context, chatWrapper } = entry;
      if (!context || !chatWrapper) throw new LocalModelError('failed', 'This is an embedding model: it cannot write answers.');
      while (context.sequencesLeft === 0) {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(new LocalModelError('failed', 'Cancelled while waiting for the model.'));
          signal.addEventListener('abort', onAbort, { once: true });
          entry.waiters.push(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      }
      const sequence = context.getSequence();
      let released = false;
      return {
        sequence,
        chatWrapper,
        release: () => {
          if (released) return;
          released = true;
          sequence.dispose();
          entry.waiters.shift()?.();
          this.end(entry);
        },
      };
    } catch (error) {
      this.end(entry);
      throw error;
    }
  }

  /** Embeds texts with a (lazily loaded) embedding model, one after another. */
  async embed(path: string, header: GgufHeader, texts: string[]): Promise<number[][]> {
    const entry = this.entry(path, header);
    this.begin(entry);
    try {
      await this.load(path, header);
      const context = entry.embedding;
      if (!context) throw new LocalModelError('failed', 'This is a chat model, not an embedding model.');
      const out: number[][] = [];
      for (const text of texts) out.push([...(await context.getEmbeddingFor(text)).vector]);
      return out;
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
