import { describe, expect, it } from 'vitest';
import { citedIn } from '../../../main/core/answering/agent/native.js';
import { PassageBook, clip } from '../../../main/core/answering/agent/tools.js';
import { parseToolArguments as parseArguments } from '../../../main/core/models/providers/tool-arguments.js';

const hit = (chunk_id: number, key = `f${chunk_id}.md`) => ({ chunk_id, artifact_id: `art_${chunk_id}`, artifact_key: key, text: `text ${chunk_id}`, snippet: `snippet ${chunk_id}`, location: { start: 0, end: 5 } });

describe('PassageBook', () => {
  it('numbers passages in the order they are met; a passage met again keeps its number', () => {
    const book = new PassageBook();
    expect(book.add(hit(40), 'ds_a')).toMatchObject({ added: true, entry: { passage: { index: 1 } } });
    expect(book.add(hit(7), 'ds_b')).toMatchObject({ added: true, entry: { passage: { index: 2 } } });
    expect(book.add(hit(40), 'ds_a')).toMatchObject({ added: false, entry: { passage: { index: 1 } } });
    expect(book.citations.map((c) => [c.index, c.dataset_id, c.artifact_key])).toEqual([
      [1, 'ds_a', 'f40.md'],
      [2, 'ds_b', 'f7.md'],
    ]);
    expect(book.get(2)?.chunk_id).toBe(7);
    expect(book.get(3)).toBeUndefined();
  });
});

describe('citedIn', () => {
  it('finds the known passages an answer cites, and their dataset when there is one', () => {
    const book = new PassageBook();
    book.add(hit(1), 'ds_a');
    book.add(hit(2), 'ds_a');
    book.add(hit(3), 'ds_b');
    expect(citedIn('See [2] and [1], again [2]; not [9].', book)).toEqual({ indices: [1, 2], dataset_id: 'ds_a' });
    expect(citedIn('[1] [3]', book)).toEqual({ indices: [1, 3], dataset_id: null });
    expect(citedIn('nothing cited', book)).toEqual({ indices: [], dataset_id: null });
  });
});

describe('tool arguments and observations', () => {
  it('reads a model’s arguments as an object, whatever it wrote', () => {
    expect(parseArguments('{"query":"lamp"}')).toEqual({ query: 'lamp' });
    expect(parseArguments('')).toEqual({});
    expect(parseArguments('{"query":')).toEqual({});
    expect(parseArguments('[1,2]')).toEqual({});
  });

  it('clips long text with an ellipsis', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('a'.repeat(20), 10)).toBe(`${'a'.repeat(9)}…`);
  });
});
