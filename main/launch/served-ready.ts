import type { EventEmitter } from 'node:events';

/**
 * Emitted on `process` by served mode once it listens and has printed its first line: start-up's
 * work is done, so the launcher (serve-entry.ts) may save its code cache without delaying it.
 * An event on `process` because the launcher and the bundle it runs share no module.
 */
const SERVED_READY = 'parley:served-ready';

/** `process` as the plain emitter it is: Node's typings know only its own events. */
const processEvents: EventEmitter = process;

export function signalServedReady(): void {
  processEvents.emit(SERVED_READY);
}

export function onServedReady(listener: () => void): void {
  processEvents.once(SERVED_READY, listener);
}
