import { randomBytes } from 'node:crypto';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files.js';
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG, type Config } from '../../../../shared/config.js';
import type { FieldError } from '../../../../shared/errors.js';
import type { Repositories } from '../../../db/repositories/index.js';
import { parseConfig } from '../../../../shared/config-parse.js';
import { CONFIG_TEMPLATE } from './template.js';

export const CONFIG_FILE = 'parley.toml';

export interface LoadedConfig {
  config: Config;
  /** The text of the configuration in force. */
  toml: string;
  /** The database version of the configuration in force (0: none stored, defaults in force). */
  version: number;
  /** Problems of the file on disk when it could not be used; empty when it was used. */
  problems: FieldError[];
}

/** Writes a file so that a reader sees the old or the new content, never half of one. */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // 0600: the configuration may name MCP servers' environment (tokens); only its user reads it.
    writeFileSync(temp, content, { flush: true, mode: PRIVATE_FILE_MODE });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Start-up: writes the commented default file when there is none; uses the file when it is valid
 * (recording it as a new version when it changed); otherwise reports every problem with its line
 * and column and falls back to the last good version, leaving the file for the user to mend.
 */
export function loadConfig(repos: Repositories, dataDir: string, now: string): LoadedConfig {
  const file = join(dataDir, CONFIG_FILE);
  const text = readIfExists(file);
  const latest = repos.configVersions.latest();

  if (text === undefined) {
    writeFileAtomic(file, latest?.toml ?? CONFIG_TEMPLATE);
    if (latest) return { config: mustParse(latest.toml), toml: latest.toml, version: latest.version, problems: [] };
    const version = repos.configVersions.insert({ toml: CONFIG_TEMPLATE, created_at: now, created_by: null, source: 'default' });
    return { config: DEFAULT_CONFIG, toml: CONFIG_TEMPLATE, version, problems: [] };
  }

  const parsed = parseConfig(text);
  if (parsed.ok) {
    if (latest?.toml === text) return { config: parsed.config, toml: text, version: latest.version, problems: [] };
    const version = repos.configVersions.insert({ toml: text, created_at: now, created_by: null, source: latest ? 'file' : 'default' });
    return { config: parsed.config, toml: text, version, problems: [] };
  }
  if (latest) return { config: mustParse(latest.toml), toml: latest.toml, version: latest.version, problems: parsed.errors };
  return { config: DEFAULT_CONFIG, toml: CONFIG_TEMPLATE, version: 0, problems: parsed.errors };
}

/** Versions in the database were valid when stored; one that is not any more is a bug, said loudly. */
function mustParse(toml: string): Config {
  const parsed = parseConfig(toml);
  if (!parsed.ok) throw new Error(`a stored configuration version no longer validates: ${JSON.stringify(parsed.errors)}`);
  return parsed.config;
}

export function describeProblems(file: string, problems: FieldError[]): string {
  return problems.map((p) => `${file}:${p.line ?? 1}:${p.column ?? 1}: ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n');
}
