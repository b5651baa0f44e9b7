import { fork } from 'node:child_process';
import type { Config } from '../../../../../shared/config.js';
import type { Logger } from '../../../platform/logger.js';
import { workerScript } from '../../../../launch/worker-script.js';
import { ProviderError, type AgentTurnEvent } from '../../../platform/ports/providers.js';
import { LocalModelError } from '../engine.js';
import type { GgufHeader } from '../gguf-header.js';
import { sampledFreeMemory, type FreeMemory } from '../memory.js';
import { Channel, mergeDeltas } from './channel.js';
import { fromWire, type EngineSnapshot, type FromHost, type GenerateRequest, type ModelHost, type ToHost } from './types.js';

/**
 * The local models run in a process of their own (host-process.ts): a native abort or an
 * out-of-memory kill in llama.cpp ends that process, not the app. This is the main process's side:
 * the same surface as the engine, over messages. The engine's state is mirrored from the reports
 * the process sends, so `state()` and `residents()` stay synchronous for routing and listings.
 *
 * When the process dies, every answer it was writing fails (its text so far is kept by the
 * pipeline, as for any provider failing mid-answer), every model reads as unloaded (one that was
 * loading as failed), and the next request starts a new process.
 */

/** A started model process, however it was started. */
export interface HostProcess {
  readonly pid: number | undefined;
  send(message: ToHost): void;
  onMessage(listener: (message: FromHost) => void): void;
  /** Called once when it has ended, with how (a signal, an exit code, why it could not start). */
  onExit(listener: (how: string) => void): void;
  kill(): void;
}

/** Starts the process running `script`: child_process.fork here, Electron's utilityProcess on the desktop. */
export type HostSpawner = (script: string) => HostProcess;

const STDERR_KEEP = 2000;

/** Served mode (and tests): a Node child process; under Electron it runs the script as plain Node. */
export const forkHost: HostSpawner = (script) => {
  const child = fork(script, [], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEEP);
  });
  // Neither the process nor its channel keeps the app alive; it ends with the app (it exits on disconnect).
  child.unref();
  child.channel?.unref();
  const exits: ((how: string) => void)[] = [];
  let ended = false;
  const end = (how: string) => {
    if (ended) return;
    ended = true;
    const last = stderr.trim().split('\n').pop();
    for (const listener of exits) listener(last ? `${how}: ${last}` : how);
  };
  child.on('exit', (code, signal) => end(signal ?? `exit code ${code}`));
  child.on('error', (error) => end(error.message));
  return {
    get pid() {
      return child.pid;
    },
    send: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => child.on('message', (message) => listener(message as FromHost)),
    onExit: (listener) => exits.push(listener),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
};

export interface ProcessHostOptions {
  config: () => Config;
  log?: Logger | undefined;
  spawn?: HostSpawner | undefined;
  /** The model process's script (found beside this module by default). */
  script?: string | undefined;
  freeMemory?: FreeMemory | undefined;
}

type Pending = { kind: 'call'; resolve: (value: unknown) => void; reject: (error: Error) => void } | { kind: 'stream'; channel: Channel<AgentTurnEvent>; settle: () => void };

interface Running {
  process: HostProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  dead: boolean;
}

/** A union's members each without `K` (Omit over a union would merge them). */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type CallBody = Without<Extract<ToHost, { type: 'call' }>, 'type' | 'id' | 'config'>;

const EMPTY: EngineSnapshot = { unavailable: null, states: {}, residents: [] };

export class ProcessHost implements ModelHost {
  readonly freeMemory: FreeMemory;
  private current: Running | null = null;
  private mirror: EngineSnapshot = EMPTY;
  private ids = 0;
  private closed = false;

  constructor(private readonly options: ProcessHostOptions) {
    this.freeMemory = options.freeMemory ?? sampledFreeMemory();
  }

  /** The model process's id, when one is running (tests kill it to see the app survive). */
  pid(): number | undefined {
    return this.current?.process.pid;
  }

  private start(): Running {
    if (this.current && !this.current.dead) return this.current;
    if (this.closed) throw new LocalModelError('unavailable', 'Parley is shutting down.');
    const script = this.options.script ?? workerScript(import.meta.url, 'host-process');
    const process = (this.options.spawn ?? forkHost)(script);
    let ready!: () => void;
    let failed!: (error: Error) => void;
    const running: Running = {
      process,
      ready: new Promise<void>((resolve, reject) => {
        ready = resolve;
        failed = reject;
      }),
      pending: new Map(),
      dead: false,
    };
    running.ready.catch(() => undefined);
    process.onMessage((message) => this.receive(running, message, ready));
    process.onExit((how) => {
      running.dead = true;
      failed(new LocalModelError('unavailable', `The local models' process could not start (${how}).`));
      this.died(running, how);
    });
    this.current = running;
    return running;
  }

  private receive(running: Running, message: FromHost, ready: () => void): void {
    switch (message.type) {
      case 'ready':
        ready();
        return;
      case 'state':
        if (this.current === running) this.mirror = message.snapshot;
        return;
      case 'log':
        this.options.log?.[message.level](message.message);
        return;
      default:
        break;
    }
    const pending = running.pending.get(message.id);
    if (!pending) return;
    if (pending.kind === 'call') {
      running.pending.delete(message.id);
      if (message.type === 'result') pending.resolve(message.value);
      else if (message.type === 'error') pending.reject(fromWire(message.error));
      return;
    }
    if (message.type === 'event') pending.channel.push(message.event);
    else if (message.type === 'end') pending.settle();
    else if (message.type === 'error') {
      pending.channel.close(fromWire(message.error));
      pending.settle();
    }
  }

  /** The process ended: what it was doing fails, and the mirror forgets what it had loaded. */
  private died(running: Running, how: string): void {
    if (this.current === running) {
      this.current = null;
      const states: EngineSnapshot['states'] = {};
      const reason = `The local models' process stopped while loading it (${how}).`;
      for (const [path, s] of Object.entries(this.mirror.states)) if (s.state === 'loading') states[path] = { state: 'failed', error: reason };
      this.mirror = { unavailable: null, states, residents: [] };
    }
    if (!this.closed) this.options.log?.warn(`the local models' process stopped (${how}); ${running.pending.size} request(s) it was serving failed, the next starts it again`);
    for (const pending of running.pending.values()) {
      if (pending.kind === 'call') {
        pending.reject(new LocalModelError('failed', `The local model's process stopped (${how}).`));
      } else {
        pending.channel.close(new ProviderError('upstream_error', `The local model's process stopped (${how}) while writing this answer; the next answer starts it again.`));
        pending.settle();
      }
    }
    running.pending.clear();
  }

  private async call(body: CallBody): Promise<unknown> {
    const running = this.start();
    await running.ready;
    if (running.dead) throw new LocalModelError('failed', "The local model's process stopped.");
    const id = ++this.ids;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { kind: 'call', resolve, reject });
      running.process.send({ ...body, type: 'call', id, config: this.options.config() } as ToHost);
    });
  }

  async probe(): Promise<void> {
    await this.call({ method: 'probe' });
  }

  unavailableReason(): string | null {
    return this.mirror.unavailable;
  }

  state(path: string) {
    if (this.mirror.unavailable) return { state: 'failed' as const, error: this.mirror.unavailable };
    return this.mirror.states[path] ?? { state: 'unloaded' as const, error: null };
  }

  residents() {
    return this.mirror.residents;
  }

  async load(path: string, header: GgufHeader): Promise<void> {
    await this.call({ method: 'load', path, header });
  }

  async unload(path: string): Promise<void> {
    // Nothing runs, so nothing is loaded.
    if (!this.current || this.current.dead) return;
    await this.call({ method: 'unload', path });
  }

  async embed(path: string, header: GgufHeader, texts: string[]): Promise<number[][]> {
    return (await this.call({ method: 'embed', path, header, texts })) as number[][];
  }

  async *generate(request: GenerateRequest, signal: AbortSignal): AsyncIterable<AgentTurnEvent> {
    if (signal.aborted) return;
    let running: Running;
    try {
      running = this.start();
      await running.ready;
    } catch (error) {
      if (signal.aborted) return;
      throw new ProviderError('unavailable', error instanceof Error ? error.message : String(error));
    }
    const id = ++this.ids;
    const channel = new Channel<AgentTurnEvent>();
    let settled = false;
    let settle!: () => void;
    const finished = new Promise<void>((resolve) => (settle = resolve));
    const pending: Pending = {
      kind: 'stream',
      channel,
      settle: () => {
        settled = true;
        running.pending.delete(id);
        channel.close();
        settle();
      },
    };
    if (running.dead) throw new ProviderError('upstream_error', "The local model's process stopped; the next answer starts it again.");
    running.pending.set(id, pending);
    const cancel = () => running.process.send({ type: 'cancel', id });
    signal.addEventListener('abort', cancel, { once: true });
    running.process.send({ type: 'generate', id, config: this.options.config(), request });
    try {
      yield* channel.drain(mergeDeltas);
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    } finally {
      signal.removeEventListener('abort', cancel);
      // The consumer stopped early (cancel, client gone): the answer stops at its next token, and
      // this returns once its sequence is free, as an answer written in this process would.
      if (!settled) {
        cancel();
        await finished;
      }
    }
  }

  /** Ends the model process (its memory goes back at once; nothing in it needs saving). */
  async close(): Promise<void> {
    this.closed = true;
    const running = this.current;
    if (!running || running.dead) return;
    const exited = new Promise<void>((resolve) => running.process.onExit(() => resolve()));
    running.process.kill();
    await exited;
  }
}
