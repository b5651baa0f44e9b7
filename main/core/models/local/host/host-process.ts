import { ConfigSchema, type Config } from '../../../../../shared/config.js';
import { LocalEngine } from '../engine.js';
import { generateWith } from './generate.js';
import { toWire, type FromHost, type ToHost } from './types.js';

/**
 * The local models' own process: it owns the LocalEngine (node-llama-cpp and llama.cpp's native
 * code) and writes answers, so that a native abort or an out-of-memory kill here ends this
 * process only — the main process sees it exit and fails the answers it was writing (client.ts).
 * Started with child_process.fork (served mode) or Electron's utilityProcess (the desktop app);
 * it speaks to its parent through whichever of the two it was given.
 */

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: FromHost): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

let config: Config = ConfigSchema.parse({});
let reportQueued = false;
/** State changes come in bursts (a load: loading, loaded, begin): one report after each burst. */
function report(): void {
  if (reportQueued) return;
  reportQueued = true;
  queueMicrotask(() => {
    reportQueued = false;
    send({ type: 'state', snapshot: engine.snapshot() });
  });
}

const engine = new LocalEngine({
  config: () => config,
  onChange: report,
  log: {
    info: (message) => send({ type: 'log', level: 'info', message }),
    warn: (message) => send({ type: 'log', level: 'warn', message }),
    error: (message) => send({ type: 'log', level: 'warn', message }),
  },
});

/** Answers being written, by request id, so a cancel can stop them. */
const running = new Map<number, AbortController>();

async function call(message: Extract<ToHost, { type: 'call' }>): Promise<unknown> {
  switch (message.method) {
    case 'probe':
      await engine.probe();
      return null;
    case 'load':
      // An explicit load: with every loaded model writing, it fails as busy rather than waiting.
      return engine.load(message.path, message.header);
    case 'unload':
      return engine.unload(message.path);
    case 'embed':
      return engine.embed(message.path, message.header, message.texts);
    case 'close':
      return engine.close();
  }
}

/**
 * Text goes to the main process at most every this many milliseconds (the first piece at once).
 * Sent token by token, every token woke the main process too, and on two cores those wake-ups took
 * time from llama.cpp's thread: 12% fewer tokens a second than in-process (SmolLM2, quiet machine).
 */
const TEXT_EVERY_MS = 25;

async function generate(message: Extract<ToHost, { type: 'generate' }>): Promise<void> {
  const stop = new AbortController();
  running.set(message.id, stop);
  let text = '';
  let first = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (text) send({ type: 'event', id: message.id, event: { type: 'delta', text } });
    text = '';
  };
  try {
    for await (const event of generateWith(engine, message.request, stop.signal)) {
      if (event.type === 'delta' && !first) {
        text += event.text;
        timer ??= setTimeout(flush, TEXT_EVERY_MS);
        continue;
      }
      first &&= event.type !== 'delta';
      flush();
      send({ type: 'event', id: message.id, event });
    }
    flush();
    send({ type: 'end', id: message.id });
  } catch (error) {
    flush();
    send({ type: 'error', id: message.id, error: toWire(error) });
  } finally {
    running.delete(message.id);
  }
}

function receive(message: ToHost): void {
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  config = message.config;
  if (message.type === 'generate') {
    void generate(message);
    return;
  }
  call(message).then(
    (value) => send({ type: 'result', id: message.id, value: value ?? null }),
    (error: unknown) => send({ type: 'error', id: message.id, error: toWire(error) }),
  );
}

if (parentPort) {
  parentPort.on('message', (event) => receive(event.data as ToHost));
} else {
  process.on('message', (message) => receive(message as ToHost));
  // The main process is gone (killed, crashed): nothing is left to answer to.
  process.on('disconnect', () => process.exit(0));
}
send({ type: 'ready' });
