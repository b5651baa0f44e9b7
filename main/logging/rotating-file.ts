/**
 * A log file that rotates by size: `parley.log` is renamed `parley.log.1` (and so on, `keep`
 * files at most) once it passes `maxBytes`. Writes are synchronous appends: a line is on disk when
 * the call returns, so the lines before a crash are never lost. A write that fails (a full disk)
 * is dropped, never thrown at the code that logs.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class RotatingFile {
  private fd: number | null = null;
  private size = 0;

  constructor(
    private readonly dir: string,
    private readonly name = 'parley.log',
    private readonly maxBytes = 10 * 1024 * 1024,
    private readonly keep = 5,
  ) {}

  get path(): string {
    return join(this.dir, this.name);
  }

  private open(): number {
    if (this.fd !== null) return this.fd;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = existsSync(this.path) ? statSync(this.path).size : 0;
    return this.fd;
  }

  private rotate(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(`${this.path}.${this.keep}`, { force: true });
    for (let i = this.keep - 1; i >= 1; i--) if (existsSync(`${this.path}.${i}`)) renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
    renameSync(this.path, `${this.path}.1`);
  }

  write(line: string): void {
    try {
      const fd = this.open();
      const bytes = Buffer.from(line);
      writeSync(fd, bytes);
      this.size += bytes.length;
      if (this.size >= this.maxBytes) this.rotate();
    } catch {
      // Logging never breaks the app (a full disk included).
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
