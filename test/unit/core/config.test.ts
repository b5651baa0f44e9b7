import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../shared/config.js';
import { bootCore } from '../../../main/boot.js';
import { CONFIG_FILE } from '../../../main/core/platform/config/load.js';
import { parseConfig } from '../../../shared/config-parse.js';
import { CONFIG_TEMPLATE } from '../../../main/core/platform/config/template.js';
import { tempDir } from '../../support/core.js';
import { collectingLogger } from '../../support/logger.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((f) => f()));

function boot(dir: string, warnings: string[] = []) {
  const core = bootCore({ dataDir: dir, appVersion: 't', log: collectingLogger(warnings) });
  cleanups.push(() => core.close());
  return core;
}

describe('config file', () => {
  it('the template written on first start states every default, and only defaults', () => {
    expect(parse(CONFIG_TEMPLATE)).toEqual(DEFAULT_CONFIG);
  });

  it('is written with comments on first start and used', () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const core = boot(dir);
    const text = readFileSync(join(dir, CONFIG_FILE), 'utf8');
    expect(text).toContain('# Parley configuration');
    expect(core.config()).toEqual(DEFAULT_CONFIG);
  });

  it('a valid edit is used at the next start', () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    boot(dir).close();
    writeFileSync(join(dir, CONFIG_FILE), CONFIG_TEMPLATE.replace('carousel = "horizontal"', 'carousel = "vertical"'));
    expect(boot(dir).config().ui.carousel).toBe('vertical');
  });

  it('an invalid file is reported with line and column, and the last good version is used', () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    boot(dir).close();
    writeFileSync(join(dir, CONFIG_FILE), CONFIG_TEMPLATE.replace('carousel = "horizontal"', 'carousel = "vertical"'));
    boot(dir).close();
    const broken = CONFIG_TEMPLATE.replace('port = 4317', 'port = "four"');
    writeFileSync(join(dir, CONFIG_FILE), broken);
    const warnings: string[] = [];
    const core = boot(dir, warnings);
    const portLine = broken.split('\n').findIndex((l) => l.startsWith('port =')) + 1;
    expect(warnings.join('\n')).toContain(`parley.toml:${portLine}:1: server.port:`);
    expect(core.config().ui.carousel).toBe('vertical');
    // The user's file is left for them to mend, not overwritten.
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe(broken);
  });
});

describe('parseConfig', () => {
  it('reports TOML syntax errors with their position', () => {
    const result = parseConfig('[server]\nport = = 1\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ line: 2 });
  });

  it('refuses unknown keys where they are written, so a typo is not silently ignored', () => {
    const result = parseConfig('[ui]\ntheme = "dark"\ncarousell = "vertical"\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: 'ui.carousell', line: 3, column: 1 });
  });

  it('refuses a non-loopback host', () => {
    const result = parseConfig('[server]\nhost = "0.0.0.0"\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: 'server.host', line: 2 });
  });

  it('fills every missing key with its default', () => {
    const result = parseConfig('[features]\nsimple_chat = true\n');
    expect(result).toEqual({ ok: true, config: { ...DEFAULT_CONFIG, features: { simple_chat: true } } });
  });
});
