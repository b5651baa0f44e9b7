import { TomlError, parse } from 'smol-toml';
import { ConfigSchema, type Config } from './config.js';
import type { FieldError } from './errors.js';

export type ParseResult = { ok: true; config: Config } | { ok: false; errors: FieldError[] };

/** Parses and validates a TOML configuration; every problem comes back with its line and column. */
export function parseConfig(toml: string): ParseResult {
  let raw: unknown;
  try {
    raw = parse(toml);
  } catch (error) {
    if (error instanceof TomlError) {
      const message = error.message.split('\n')[0] ?? 'invalid TOML';
      return { ok: false, errors: [{ path: '', message, line: error.line, column: error.column }] };
    }
    throw error;
  }
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => {
      const path = issue.path.map(String);
      const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const where = locate(toml, unknownKey ? [...path, unknownKey] : path);
      return { path: (unknownKey ? [...path, unknownKey] : path).join('.'), message: issue.message, ...where };
    }),
  };
}

const TABLE = /^\s*\[\s*([A-Za-z0-9_.\s"-]+?)\s*\]\s*(#.*)?$/;
const KEY = /^(\s*)([A-Za-z0-9_-]+)\s*=/;

/**
 * Finds where a dotted path (`server.port`) is written, for errors found after parsing. Covers the
 * shapes this file uses (tables and `key = value`); anything else points at the file's start.
 */
export function locate(toml: string, path: string[]): { line: number; column: number } {
  const lines = toml.split(/\r?\n/);
  let table: string[] = [];
  let tableLine: { line: number; column: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const header = TABLE.exec(text);
    if (header) {
      table = (header[1] ?? '').split('.').map((part) => part.trim().replace(/^"|"$/g, ''));
      if (path.length >= 1 && path.join('.') === table.join('.')) tableLine = { line: i + 1, column: 1 };
      continue;
    }
    const key = KEY.exec(text);
    if (!key) continue;
    const full = [...table, key[2] ?? ''];
    if (full.length <= path.length && full.every((part, j) => part === path[j])) {
      return { line: i + 1, column: (key[1] ?? '').length + 1 };
    }
  }
  return tableLine ?? { line: 1, column: 1 };
}
