import { beforeAll, describe, expect, it } from 'vitest';
import { detectMime, PARSEABLE_TYPES } from '../../../main/core/knowledge/ingest/mime.js';
import { garbage, GIF_BYTES, JPEG_BYTES, makeZip, PNG_BYTES, sampleDocx, samplePdf, SAMPLE_CSV, SAMPLE_HTML, SAMPLE_JSON, SAMPLE_MARKDOWN } from '../../fixtures/files/index.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let pdf: Buffer;
let docx: Buffer;

beforeAll(async () => {
  pdf = await samplePdf();
  docx = await sampleDocx();
});

interface Case {
  name: string;
  bytes: () => Buffer;
  filename: string;
  declared?: string | null;
  mime: string;
  mismatch?: boolean;
  corrected?: boolean;
}

const text = (s: string) => () => Buffer.from(s);

const cases: Case[] = [
  // Magic bytes win.
  { name: 'PDF by its header', bytes: () => pdf, filename: 'report.pdf', mime: 'application/pdf' },
  { name: 'PDF with no name or type', bytes: () => pdf, filename: 'upload', mime: 'application/pdf' },
  { name: 'DOCX: a ZIP with word/document.xml', bytes: () => docx, filename: 'guide.docx', declared: DOCX, mime: DOCX },
  { name: 'DOCX declared as a generic binary', bytes: () => docx, filename: 'guide', declared: 'application/octet-stream', mime: DOCX },
  { name: 'DOCX declared as a ZIP is named more exactly', bytes: () => docx, filename: 'guide.zip', declared: 'application/zip', mime: DOCX, corrected: true },
  { name: 'PNG, JPEG, GIF are recognised', bytes: () => PNG_BYTES, filename: 'x', mime: 'image/png' },
  { name: 'JPEG', bytes: () => JPEG_BYTES, filename: 'x', mime: 'image/jpeg' },
  { name: 'GIF', bytes: () => GIF_BYTES, filename: 'x', mime: 'image/gif' },
  // Mismatches: declared and content are different kinds.
  { name: 'declared PDF, bytes are PNG', bytes: () => PNG_BYTES, filename: 'scan.pdf', declared: 'application/pdf', mime: 'image/png', mismatch: true },
  { name: 'declared CSV, bytes are a ZIP', bytes: () => makeZip('a.txt', 'hello'), filename: 'data.csv', declared: 'text/csv', mime: 'application/zip', mismatch: true },
  { name: 'declared text, bytes are a PDF', bytes: () => pdf, filename: 'notes.txt', declared: 'text/plain', mime: 'application/pdf', mismatch: true },
  { name: 'declared PDF, content is text', bytes: text('just some words\n'), filename: 'a.pdf', declared: 'application/pdf', mime: 'text/plain', mismatch: true },
  { name: 'declared PNG, content is JSON', bytes: text('{"a":1}'), filename: 'a.png', declared: 'image/png', mime: 'application/json', mismatch: true },
  // A misleading name (no declared type) is corrected, not a mismatch.
  { name: 'JPEG named .pdf', bytes: () => JPEG_BYTES, filename: 'photo.pdf', mime: 'image/jpeg', corrected: true },
  // Corrections between text flavours we read anyway.
  { name: 'declared text/plain, content JSON', bytes: text(SAMPLE_JSON), filename: 'data.txt', declared: 'text/plain', mime: 'application/json', corrected: true },
  { name: 'declared with parameters', bytes: text('[1, 2, 3]'), filename: 'x', declared: 'text/plain; charset=utf-8', mime: 'application/json', corrected: true },
  { name: 'named .txt, content JSON', bytes: text(SAMPLE_JSON), filename: 'data.txt', mime: 'application/json', corrected: true },
  { name: 'declared text/plain, content HTML', bytes: text(SAMPLE_HTML), filename: 'page.txt', declared: 'text/plain', mime: 'text/html', corrected: true },
  // An explicit plain-text claim beats lined-up delimiters: prose is not a table.
  { name: 'declared text/plain, content CSV-shaped', bytes: text(SAMPLE_CSV), filename: 'people', declared: 'text/plain', mime: 'text/plain', corrected: false },
  {
    name: 'prose with one semicolon a line, named .txt',
    bytes: text('Entry 1. The keeper logs the tide at dawn; calm water.\nEntry 2. The keeper logs the tide at dawn; a north wind.\nEntry 3. The keeper logs the tide at dawn; rain.\n'),
    filename: 'logbook.txt',
    mime: 'text/plain',
    corrected: false,
  },
  { name: 'declared HTML, content JSON', bytes: text('{"ok": true}'), filename: 'x.html', declared: 'text/html', mime: 'application/json', corrected: true },
  { name: 'TypeScript declared video/mp2t by a browser', bytes: text('export const x = 1;\n'), filename: 'x.ts', declared: 'video/mp2t', mime: 'text/plain', corrected: true },
  // Text flavours from content alone.
  { name: 'JSON without a name', bytes: text(SAMPLE_JSON), filename: 'blob', mime: 'application/json' },
  { name: 'JSON after a UTF-8 BOM', bytes: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": 1}')]), filename: 'x', mime: 'application/json' },
  { name: 'HTML without a name', bytes: text(SAMPLE_HTML), filename: 'index', mime: 'text/html' },
  { name: 'CSV without a name', bytes: text(SAMPLE_CSV), filename: 'export', mime: 'text/csv' },
  { name: 'TSV by name and content', bytes: text('a\tb\tc\n1\t2\t3\n4\t5\t6\n'), filename: 'x.tsv', mime: 'text/tab-separated-values' },
  { name: 'Markdown by name', bytes: text('Hello there.\n'), filename: 'notes.md', mime: 'text/markdown' },
  { name: 'Markdown by structure', bytes: text(SAMPLE_MARKDOWN), filename: 'README', mime: 'text/markdown' },
  { name: 'Markdown README that starts with HTML', bytes: text('<p align="center"><img src="logo.png"></p>\n\n# Project\n\nText.\n'), filename: 'README.md', mime: 'text/markdown' },
  { name: 'plain prose', bytes: text('Dear team,\n\nthe meeting moved to Friday.\n'), filename: 'letter', mime: 'text/plain' },
  { name: 'UTF-16 with a BOM', bytes: () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('plain words\n', 'utf16le')]), filename: 'u16.txt', mime: 'text/plain' },
  { name: 'Windows-1252 text', bytes: () => Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1'), filename: 'menu.txt', mime: 'text/plain' },
  { name: 'a 64 KB prefix of a large JSON file', bytes: () => Buffer.from(JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item ${i}` })))).subarray(0, 64 * 1024), filename: 'big', mime: 'application/json' },
  // Weak evidence never overrides the declared flavour.
  { name: 'declared Markdown, plain content', bytes: text('No markup here.\n'), filename: 'x', declared: 'text/markdown', mime: 'text/markdown' },
  { name: 'declared JSON that does not parse stays JSON', bytes: text('{"a": '), filename: 'bad.json', declared: 'application/json', mime: 'application/json' },
  { name: 'named .txt with Markdown-like content stays plain', bytes: text(SAMPLE_MARKDOWN), filename: 'notes.txt', declared: 'text/plain', mime: 'text/plain' },
  // Unknown binary contradicts nothing: the parser will say why it cannot read it.
  { name: 'garbage declared as PDF', bytes: () => garbage(4096), filename: 'broken.pdf', declared: 'application/pdf', mime: 'application/pdf' },
  { name: 'garbage without a claim', bytes: () => garbage(4096), filename: 'blob', mime: 'application/octet-stream' },
  { name: 'empty file keeps its name', bytes: () => Buffer.alloc(0), filename: 'empty.csv', mime: 'text/csv' },
];

describe('detectMime', () => {
  it.each(cases)('$name', (c) => {
    const result = detectMime({ bytes: c.bytes(), filename: c.filename, declared: c.declared ?? null });
    expect(result.mime).toBe(c.mime);
    expect(result.mismatch).toBe(c.mismatch ?? false);
    expect(result.corrected).toBe(c.corrected ?? false);
    if (result.mismatch || result.corrected) expect(result.detail).toMatch(/\S/);
  });

  it('looks only at the first 64 KB', () => {
    const big = Buffer.concat([Buffer.from('plain text line\n'.repeat(5000)), PNG_BYTES]);
    expect(detectMime({ bytes: big, filename: 'x' }).mime).toBe('text/plain');
  });

  it('lists the types with a dedicated parser', () => {
    expect(PARSEABLE_TYPES).toEqual(expect.arrayContaining(['application/pdf', DOCX, 'text/html', 'text/markdown', 'text/plain', 'text/csv', 'application/json']));
  });
});
