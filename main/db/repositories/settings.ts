import { z } from 'zod';
import type { SqlDb as Db } from '../sql.js';
import { jsonColumnOr } from './decode.js';

/** Named values of the installation (the desktop owner, signing keys, a sign-in code): text, or JSON a schema checks. */
export function createSettingsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const add = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
  const reads = {
    get: (key: string): string | undefined => get.get(key)?.value,
    /**
     * A value stored with `setJson`, parsed; absent or unreadable, undefined. Its shape is its
     * owner's to check (a generic signature would not survive `typedErrors`' wrapping).
     */
    getJson(key: string): unknown {
      const text = get.get(key)?.value;
      return text ? jsonColumnOr(z.unknown(), text, undefined) : undefined;
    },
  };
  const writes = {
    set: (key: string, value: string) => void set.run(key, value),
    setJson: (key: string, value: unknown) => void set.run(key, JSON.stringify(value)),
    /** Stores `value` unless the key has one (another instance's, made meanwhile), and answers the value that stands. */
    setIfAbsent: (key: string, value: string): string => (add.run(key, value), get.get(key)?.value ?? value),
  };
  return { ...reads, ...writes };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
