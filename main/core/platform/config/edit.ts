import { stringify } from 'smol-toml';

/** A value one key may be set to (what `admin.config.patch` accepts). */
export type KeyValue = string | number | boolean | string[];

const HEADER = /^[ \t]*(\[{1,2})[ \t]*([A-Za-z0-9_."' \t-]+?)[ \t]*\]{1,2}[ \t]*(#.*)?$/;
const KEY = /^[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*/;

/** The TOML literal of a value, as smol-toml writes it (`4318`, `"a \"b\""`, `["x", "y"]`). */
export function tomlLiteral(value: KeyValue): string {
  // Whole numbers as integers: TOML tells `1` from `1.0`, and the schema's integers want the former.
  const text = stringify({ v: typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value });
  return text.replace(/^v = /, '').trimEnd();
}

interface Assignment {
  table: string;
  key: string;
  /** Offsets of the value as written, without the whitespace and comment after it. */
  valueStart: number;
  valueEnd: number;
  /** Offset just after the line (its newline included) where the value ends. */
  lineEnd: number;
}

interface Table {
  name: string;
  /** Offset just after the header line. */
  headerEnd: number;
}

/** Where a value that starts at `start` ends: strings, arrays and inline tables may span lines. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      const quote = text.slice(i, i + 3);
      let j = i + 3;
      while (j < text.length && !text.startsWith(quote, j)) j += quote === '"""' && text[j] === '\\' ? 2 : 1;
      // A closing delimiter may be followed by up to two more quotes that belong to the string.
      j += 3;
      while (j < text.length && text[j] === quote[0]) j++;
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += c === '"' && text[j] === '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === '#') {
      if (depth <= 0) break;
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    } else if (c === '\n' && depth <= 0) break;
    i++;
  }
  // Back over whitespace (and the \r of a CRLF) so that what follows the value is kept as written.
  let end = Math.min(i, text.length);
  while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
  return end;
}

function lineEndAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** The tables and key assignments of a (valid) TOML text, in order, with their offsets. */
function scan(text: string): { tables: Table[]; assignments: Assignment[] } {
  const tables: Table[] = [];
  const assignments: Assignment[] = [];
  let table = '';
  let offset = 0;
  while (offset < text.length) {
    const lineEnd = lineEndAfter(text, offset);
    const line = text.slice(offset, lineEnd).replace(/\r?\n$/, '');
    const header = HEADER.exec(line);
    if (header) {
      // An array of tables ([[x]]) is no table a key here can belong to.
      table = header[1] === '[[' ? '\u0000' : (header[2] ?? '').split('.').map((part) => part.trim().replace(/^["']|["']$/g, '')).join('.');
      tables.push({ name: table, headerEnd: lineEnd });
      offset = lineEnd;
      continue;
    }
    const key = KEY.exec(line);
    if (key) {
      const valueStart = offset + key[0].length;
      const end = valueEnd(text, valueStart);
      assignments.push({ table, key: key[1] ?? '', valueStart, valueEnd: end, lineEnd: lineEndAfter(text, end) });
      offset = lineEndAfter(text, end);
      continue;
    }
    offset = lineEnd;
  }
  return { tables, assignments };
}

function setOne(text: string, table: string, key: string, literal: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const { tables, assignments } = scan(text);
  const existing = assignments.find((a) => a.table === table && a.key === key);
  // Present: only the value changes; the indentation before it and the comment after it stay.
  if (existing) return text.slice(0, existing.valueStart) + literal + text.slice(existing.valueEnd);
  const line = `${key} = ${literal}${eol}`;
  const inTable = assignments.filter((a) => a.table === table);
  const last = inTable.at(-1);
  // Absent from a table that exists: under its last key, or right under its header when it has none.
  if (last) return text.slice(0, last.lineEnd) + (last.lineEnd === text.length && !text.endsWith('\n') ? eol : '') + line + text.slice(last.lineEnd);
  const header = tables.find((t) => t.name === table);
  if (header) return text.slice(0, header.headerEnd) + (header.headerEnd === text.length && !text.endsWith('\n') ? eol : '') + line + text.slice(header.headerEnd);
  // No such table: a new one at the end.
  const body = text.length === 0 || text.endsWith('\n') ? text : text + eol;
  return `${body}${body.trim() === '' ? '' : eol}[${table}]${eol}${line}`;
}

/**
 * Sets dotted keys (`server.port`) in a TOML text, keeping everything else as written: the value
 * on the key's line is replaced (its trailing comment kept); an absent key is added under its table,
 * and an absent table is added at the end. The result is not validated here.
 */
export function setTomlValues(text: string, values: Readonly<Record<string, KeyValue>>): string {
  let result = text;
  for (const [dotted, value] of Object.entries(values)) {
    const dot = dotted.lastIndexOf('.');
    result = setOne(result, dotted.slice(0, dot), dotted.slice(dot + 1), tomlLiteral(value));
  }
  return result;
}
