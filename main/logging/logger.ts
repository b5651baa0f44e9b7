/**
 * The main process's one logger (pino): JSON lines to `<data-dir>/logs/parley.log` (rotated by
 * size, 5 files kept) and readable lines to stderr, secrets redacted from every message and field.
 * The HTTP server logs through it, so a 500's "it has been logged" is true.
 */
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { redactDeep, redactSecrets } from './redact.js';
import { RotatingFile } from './rotating-file.js';

export type { Logger };

export interface LoggerOptions {
  dataDir: string;
  /** Also write to stderr (served mode: yes). */
  stderr?: boolean;
  level?: string;
}

export function logsDir(dataDir: string): string {
  return join(dataDir, 'logs');
}

export function createLogger(options: LoggerOptions): { logger: Logger; file: RotatingFile } {
  const file = new RotatingFile(logsDir(options.dataDir));
  const streams: pino.StreamEntry[] = [{ stream: { write: (line: string) => file.write(line) } }];
  if (options.stderr ?? true) {
    streams.push({
      stream: {
        write: (line: string) => {
          try {
            const entry = JSON.parse(line) as { level: number; msg?: string; err?: { stack?: string } };
            const label = entry.level >= 50 ? 'error' : entry.level >= 40 ? 'warning' : 'info';
            process.stderr.write(`${label}: ${entry.msg ?? ''}${entry.err?.stack ? `\n${entry.err.stack}` : ''}\n`);
          } catch {
            process.stderr.write(line);
          }
        },
      },
    });
  }
  const logger = pino(
    {
      level: options.level ?? 'info',
      // Every field and message passes through the redactor before it is written.
      formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          const redacted = args.map((a: unknown) => (typeof a === 'string' ? redactSecrets(a) : a)) as Parameters<typeof method>;
          method.apply(this, redacted);
        },
      },
      serializers: {
        // Duck-typed: an error from another realm (a vm, a worker) is not `instanceof Error` here.
        err: (error: unknown) => {
          const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as Partial<NodeJS.ErrnoException>;
          return { type: e.name ?? 'Error', message: redactSecrets(String(e.message ?? '')), stack: redactSecrets(e.stack ?? ''), ...(e.code ? { code: String(e.code) } : {}) };
        },
      },
    },
    pino.multistream(streams),
  );
  return { logger, file };
}
