import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { setTomlValues, tomlLiteral } from '../../../main/core/platform/config/edit.js';
import { CONFIG_TEMPLATE } from '../../../main/core/platform/config/template.js';

describe('setTomlValues: edits keep the file as written', () => {
  it('replaces a value on its line and keeps the comment after it and the ones around it', () => {
    const text = '# top\n[server]\n# the port\nport = 4317   # loopback only\nhost = "127.0.0.1"\n';
    expect(setTomlValues(text, { 'server.port': 4318 })).toBe('# top\n[server]\n# the port\nport = 4318   # loopback only\nhost = "127.0.0.1"\n');
  });

  it('changes only the keys asked for in the whole template, comments and all', () => {
    const edited = setTomlValues(CONFIG_TEMPLATE, { 'server.port': 4318, 'ui.carousel': 'vertical', 'routing.latency_weight': 0.5 });
    const expected = CONFIG_TEMPLATE.replace('port = 4317', 'port = 4318').replace('carousel = "horizontal"', 'carousel = "vertical"').replace('latency_weight = 0.2', 'latency_weight = 0.5');
    expect(edited).toBe(expected);
    expect(parse(edited)).toMatchObject({ server: { port: 4318 }, ui: { carousel: 'vertical' }, routing: { latency_weight: 0.5 } });
  });

  it('adds an absent key under the last key of its table, not at the end of the file', () => {
    const text = '[server]\nport = 1 # p\n\n# about ui\n[ui]\ntheme = "dark"\n';
    expect(setTomlValues(text, { 'server.host': 'localhost' })).toBe('[server]\nport = 1 # p\nhost = "localhost"\n\n# about ui\n[ui]\ntheme = "dark"\n');
  });

  it('adds an absent key right under the header of an empty table', () => {
    expect(setTomlValues('[features]\n\n[ui]\n', { 'features.simple_chat': true })).toBe('[features]\nsimple_chat = true\n\n[ui]\n');
  });

  it('adds an absent table at the end, also to a file without a final newline or an empty file', () => {
    expect(setTomlValues('[server]\nport = 1', { 'ui.carousel': 'vertical' })).toBe('[server]\nport = 1\n\n[ui]\ncarousel = "vertical"\n');
    expect(setTomlValues('', { 'ui.carousel': 'vertical' })).toBe('[ui]\ncarousel = "vertical"\n');
    expect(setTomlValues('[server]\nport = 1', { 'server.host': 'localhost' })).toBe('[server]\nport = 1\nhost = "localhost"\n');
  });

  it('replaces a multi-line array whole, and keeps comments inside others', () => {
    const edited = setTomlValues(CONFIG_TEMPLATE, { 'uploads.allowed_types': ['text/plain', 'text/csv'] });
    expect(edited).toContain('allowed_types = [ "text/plain", "text/csv" ]\n# Each part of a multi-part upload');
    expect(parse(edited)).toMatchObject({ uploads: { allowed_types: ['text/plain', 'text/csv'], part_size_mb: 8 } });
    const commented = '[server]\ncors_origins = [\n  "http://a.test", # first ]\n  "http://b.test",\n] # end\nport = 2\n';
    const out = setTomlValues(commented, { 'server.port': 3 });
    expect(out).toBe(commented.replace('port = 2', 'port = 3'));
    expect(setTomlValues(commented, { 'server.cors_origins': [] })).toBe('[server]\ncors_origins = [] # end\nport = 2\n');
  });

  it('writes strings with quotes, backslashes and hashes as valid TOML, and replaces such strings whole', () => {
    const tricky = 'say "hi" # not a comment \\ done';
    const once = setTomlValues('[ui]\ntheme = "a # b \\" c" # why\n', { 'ui.theme': tricky });
    expect(once).toMatch(/# why\n$/);
    expect(parse(once)).toEqual({ ui: { theme: tricky } });
    const literal = setTomlValues("[ui]\ntheme = 'x # y'\n", { 'ui.theme': 'z' });
    expect(literal).toBe('[ui]\ntheme = "z"\n');
    const multi = setTomlValues('[ui]\ntheme = """\nline "one"\n"""  # m\nc = 1\n', { 'ui.theme': 'dark' });
    expect(multi).toBe('[ui]\ntheme = "dark"  # m\nc = 1\n');
  });

  it('keeps CRLF line ends', () => {
    expect(setTomlValues('[server]\r\nport = 1\r\n', { 'server.host': '::1', 'server.port': 2 })).toBe('[server]\r\nport = 2\r\nhost = "::1"\r\n');
  });

  it('writes whole numbers as integers and others as floats', () => {
    expect(tomlLiteral(4318)).toBe('4318');
    expect(tomlLiteral(0.5)).toBe('0.5');
    expect(tomlLiteral(true)).toBe('true');
  });
});
