/**
 * Issue 27: any header bytes at all — random entry counts, key and string lengths, array types and
 * counts, files cut short, sparse tails of gigabytes — and the bounded GGUF reader either reads the
 * header or fails the file with its own GgufError and a reason; it reads nothing past its prefix
 * budget, never more than a window at a time, and finishes in a bounded number of reads.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GgufError, readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { HEADER_WINDOW, MAX_HEADER_BYTES, type HeaderFile } from '../../../main/core/models/local/gguf-reader.js';
import { arbitraryGguf, type GeneratedGguf } from '../../fixtures/gguf-arbitrary.js';

/** A generated file served from memory (its tail zeros), with every read the reader asks for noted. */
function inMemory(file: GeneratedGguf) {
  const reads: Array<{ position: number; length: number; bytesRead: number }> = [];
  let closed = 0;
  const handle: HeaderFile = {
    read(buffer, offset, length, position) {
      const end = Math.min(position + length, file.size);
      const bytesRead = Math.max(0, end - position);
      buffer.fill(0, offset, offset + bytesRead);
      if (position < file.bytes.length) file.bytes.copy(buffer, offset, position, Math.min(end, file.bytes.length));
      reads.push({ position, length, bytesRead });
      return Promise.resolve({ bytesRead });
    },
    stat: () => Promise.resolve({ size: file.size }),
    close: () => {
      closed++;
      return Promise.resolve();
    },
  };
  return { open: () => Promise.resolve(handle), reads, closed: () => closed };
}

/**
 * Reads a header can take: one per window of the prefix read through, plus one after each value
 * stepped over by seeking (at most one per entry, and a real header has under a hundred). The
 * generated headers state at most 24 entries and arrays of at most 12 written strings, so a reader
 * that looped on a stated count (2^52 elements) would blow far past this.
 */
const READ_BOUND = MAX_HEADER_BYTES / HEADER_WINDOW + 2 * 24 + 16;

describe('the bounded GGUF header reader, over arbitrary header bytes', () => {
  it('reads the header or fails it with its own error and a reason, within its prefix, a window per read, in bounded reads', async () => {
    let failed = 0;
    let read = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryGguf(), async (file) => {
        const io = inMemory(file);
        // A clock that moves a millisecond per look: a reader that kept looking would spend its budget and fail, not hang.
        let time = 0;
        const outcome = await readGgufHeader('/generated.gguf', { open: io.open, now: () => time++ }).then(
          (header) => ({ header }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome) {
          failed++;
          expect(outcome.error).toBeInstanceOf(GgufError);
          expect((outcome.error as GgufError).message.length).toBeGreaterThan(20);
        } else {
          read++;
          expect(typeof outcome.header.architecture).toBe('string');
          expect(outcome.header.architecture.length).toBeGreaterThan(0);
          expect(outcome.header.header_bytes).toBeLessThanOrEqual(Math.min(file.size, MAX_HEADER_BYTES));
        }
        const limit = Math.min(file.size, MAX_HEADER_BYTES);
        for (const r of io.reads) {
          expect(r.length).toBeLessThanOrEqual(HEADER_WINDOW);
          expect(r.position + r.length).toBeLessThanOrEqual(limit);
        }
        expect(io.reads.reduce((sum, r) => sum + r.bytesRead, 0)).toBeLessThanOrEqual(limit);
        expect(io.reads.length).toBeLessThanOrEqual(READ_BOUND);
        expect(io.closed()).toBe(1);
      }),
      { numRuns: 600, seed: 20261126 },
    );
    // The generator reaches both sides: headers that read, and the many ways of failing.
    expect(failed).toBeGreaterThan(100);
    expect(read).toBeGreaterThan(10);
  });
});
