import type { Config } from '../../../../shared/config.js';
import type { FieldError } from '../../../../shared/errors.js';
import type { Logger } from '../logger.js';
import { errorText } from '../../../../shared/errors.js';

/** One configuration as it is in force: parsed, as written, and its database version (0: none stored). */
export interface ConfigInForce {
  config: Config;
  toml: string;
  version: number;
}

export interface ConfigChange {
  previous: Config;
  config: Config;
  version: number;
}

export type ConfigListener = (change: ConfigChange) => void;

/** `server.port` → the value at that dotted path of a configuration. */
function valueAt(config: Config, dotted: string): unknown {
  let value: unknown = config;
  for (const part of dotted.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The configuration the running app uses, swapped at once when a version is saved. Pieces built
 * from it at start-up follow it through `onChange`; the few it cannot change while running are
 * pinned, and reported as needing a restart while the saved value differs from the pinned one.
 */
export class LiveConfig {
  private current: ConfigInForce;
  private problems: FieldError[];
  private readonly listeners = new Set<ConfigListener>();
  private readonly pinned = new Map<string, unknown>();

  constructor(
    /** `parley.toml` in the data directory. */
    readonly file: string,
    initial: ConfigInForce,
    fileProblems: FieldError[],
    /** When this configuration came into force with no stored version behind it (defaults). */
    readonly loadedAt: string,
    private readonly log: Logger,
  ) {
    this.current = initial;
    this.problems = fileProblems;
  }

  config(): Config {
    return this.current.config;
  }

  version(): number {
    return this.current.version;
  }

  toml(): string {
    return this.current.toml;
  }

  /** Why `parley.toml` on disk is not what is in force (a hand edit that does not validate). */
  fileProblems(): FieldError[] {
    return this.problems;
  }

  setFileProblems(problems: FieldError[]): void {
    this.problems = problems;
  }

  /** Keys whose value this process keeps until it restarts, whatever is saved meanwhile. */
  pinUntilRestart(keys: readonly string[]): void {
    for (const key of keys) this.pinned.set(key, valueAt(this.current.config, key));
  }

  /** Pinned keys whose saved value differs from the one in use, in a stable order. */
  restartRequired(): string[] {
    return [...this.pinned].filter(([key, value]) => !sameValue(valueAt(this.current.config, key), value)).map(([key]) => key).sort();
  }

  /**
   * Puts a saved version in force and tells every listener. The file holds it now, so its problems
   * are gone. A listener that fails is reported and the others still run: the version is saved,
   * and one piece failing to follow must not leave the rest behind.
   */
  apply(next: ConfigInForce): void {
    const previous = this.current.config;
    this.current = next;
    this.problems = [];
    for (const listener of [...this.listeners]) {
      try {
        listener({ previous, config: next.config, version: next.version });
      } catch (error) {
        this.log.warn(`A part of Parley could not follow configuration version ${next.version}: ${errorText(error)}`);
      }
    }
  }

  /** Calls `listener` after every change; returns what stops it. */
  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
