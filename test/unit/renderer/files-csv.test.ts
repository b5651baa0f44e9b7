import { describe, expect, it } from 'vitest';
import type { Artifact } from '../../../shared/operations/datasets.js';
import { csvField, filesCsv } from '../../../renderer/src/pages/datasets/files-csv.js';

function file(over: Partial<Artifact>): Artifact {
  return {
    id: 'art_1',
    key: 'notes.txt',
    filename: 'notes.txt',
    mime_type: 'text/plain',
    size: 12,
    upload_id: null,
    status: 'ready',
    progress: 1,
    error: null,
    chunk_count: 3,
    embedding: null,
    source: null,
    created_at: '2026-11-26T10:00:00.000Z',
    updated_at: '2026-11-26T10:00:00.000Z',
    ...over,
  };
}

describe('dataset files as CSV', () => {
  it('quotes fields holding a comma, a quote or a line break, doubling the quotes (RFC 4180)', () => {
    expect(csvField('plain.txt')).toBe('plain.txt');
    expect(csvField('a,b.txt')).toBe('"a,b.txt"');
    expect(csvField('say "hi".txt')).toBe('"say ""hi"".txt"');
    expect(csvField('two\nlines.txt')).toBe('"two\nlines.txt"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(null)).toBe('');
    expect(csvField(-4)).toBe('-4');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1.txt')).toBe("'+1.txt");
    expect(csvField('-rf')).toBe("'-rf");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('a=b')).toBe('a=b');
  });

  it('writes a header and one CRLF-ended row per file: name, type, size, status, added, chunks', () => {
    const csv = filesCsv([file({}), file({ key: 'report, "final".pdf', mime_type: null, size: 2048, status: 'failed', chunk_count: 0 })]);
    expect(csv).toBe(
      'name,type,size,status,added,chunks\r\n' +
        'notes.txt,text/plain,12,ready,2026-11-26T10:00:00.000Z,3\r\n' +
        '"report, ""final"".pdf",,2048,failed,2026-11-26T10:00:00.000Z,0\r\n',
    );
  });
});
