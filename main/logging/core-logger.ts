import type { Logger as PinoLogger } from 'pino';
import type { Logger } from '../core/platform/logger.js';

/** The core's logger over pino (served mode, the desktop app): errors keep their stack in `err`. */
export function pinoCoreLogger(logger: PinoLogger): Logger {
  return {
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message, error) => (error === undefined ? logger.error(message) : logger.error({ err: error }, message)),
  };
}

/**
 * For a command-line entry whose stderr is its interface (`parley-mcp`: stdout carries the
 * protocol), lines on stderr with a prefix.
 */
export function stderrLogger(prefix: string): Logger {
  const line = (label: string, message: string) => process.stderr.write(`${prefix}${label}${message}\n`);
  return {
    info: (message) => line('', message),
    warn: (message) => line('warning: ', message),
    error: (message, error) => line('error: ', error === undefined ? message : `${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  };
}
