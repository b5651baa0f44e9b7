import type { Logger } from '../../main/core/platform/logger.js';

/** A logger that keeps what the core said, to assert on its warnings. */
export function collectingLogger(lines: string[] = []): Logger & { lines: string[] } {
  return {
    lines,
    info: (message) => void lines.push(message),
    warn: (message) => void lines.push(message),
    error: (message, error) => void lines.push(error === undefined ? message : `${message}: ${String(error)}`),
  };
}
