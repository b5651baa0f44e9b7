/**
 * JSON, flattened into readable `path: value` lines, one block per top-level entry (a key of the
 * root object, an element of the root array), so each entry can be found and cited on its own.
 */
import { DocumentBuilder } from '../builder.js';
import { decodeTextOrThrow } from '../text.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { errorText } from '../../../../../shared/errors.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function keyPath(parent: string, key: string): string {
  const plain = /^[\p{L}\p{N}_$-]+$/u.test(key);
  if (plain) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

function scalar(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value.replace(/\s*\n\s*/g, ' ');
  return String(value);
}

/** Appends `path: value` lines for every leaf under `value`. */
function flatten(value: Json, path: string, lines: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) lines.push(`${path}: []`);
    value.forEach((item, i) => flatten(item, `${path}[${i}]`, lines));
  } else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) lines.push(`${path}: {}`);
    for (const key of keys) flatten(value[key] ?? null, keyPath(path, key), lines);
  } else {
    lines.push(path ? `${path}: ${scalar(value)}` : scalar(value));
  }
}

export function parseJson(bytes: Buffer): ParsedDocument {
  const { text } = decodeTextOrThrow(bytes, 'JSON');
  let root: Json;
  try {
    root = JSON.parse(text) as Json;
  } catch (error) {
    const reason = errorText(error);
    throw new IngestError('parse_error', `JSON: the file is not valid JSON (${reason}).`);
  }
  const builder = new DocumentBuilder();
  const entries: [string, Json][] = Array.isArray(root)
    ? root.map((item, i): [string, Json] => [`[${i}]`, item])
    : root !== null && typeof root === 'object'
      ? Object.keys(root).map((key): [string, Json] => [keyPath('', key), root[key] ?? null])
      : [['', root]];
  for (const [path, value] of entries) {
    const lines: string[] = [];
    flatten(value, path, lines);
    builder.add('paragraph', lines.join('\n'));
  }
  return builder.build({ format: 'json', root: Array.isArray(root) ? 'array' : root === null ? 'null' : typeof root, entries: entries.length });
}
