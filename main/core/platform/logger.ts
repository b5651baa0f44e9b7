/**
 * What the core logs through: one logger, given by whoever boots the core (pino in served mode and
 * on the desktop, see main/logging/; a silent or collecting one in tests). The core never writes
 * to stderr or the console itself.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Something failed that nobody asked for (background work); `error` carries the stack. */
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
};
