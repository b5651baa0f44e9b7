/**
 * Issue 32, item 4: the chunks repository answers a chunk's location decoded, so nothing above
 * `db` parses a JSON column. A location only informs (a citation's page, a heading): a stored one
 * that is not what ingest wrote reads leniently, never failing the search or passage that shows it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retrievalDb, type RetrievalDb } from '../retrieval/setup.js';

let r: RetrievalDb;
let ids: number[];
beforeEach(() => {
  r = retrievalDb();
  const kb = r.addKb('Locations');
  const artifact = r.addDocument(kb, 'notes.md', 'x');
  ids = r.chunks.replaceForArtifact(artifact, kb, [
    { ord: 0, text: 'Tides turn twice a day.', location: { start: 0, end: 23, section: 'Sea > Tides', page: 2 } },
    { ord: 1, text: 'Moons pull the water.', location: { start: 24, end: 45 } },
  ]);
});
afterEach(() => r.close());

const setLocation = (id: number, json: string) => r.db.prepare('UPDATE chunks SET location = ? WHERE id = ?').run(json, id);

describe('a chunk location', () => {
  it('reads back as the object ingest stored, by id and with its neighbours', () => {
    const [first, second] = ids as [number, number];
    expect(r.chunks.hit(first)?.location).toEqual({ start: 0, end: 23, section: 'Sea > Tides', page: 2 });
    expect(r.chunks.around(second, 1).map((c) => c.location)).toEqual([
      { start: 0, end: 23, section: 'Sea > Tides', page: 2 },
      { start: 24, end: 45 },
    ]);
  });

  it('that is not JSON reads as the start of the file', () => {
    const [first] = ids as [number];
    setLocation(first, '{"start": 3,');
    expect(r.chunks.hit(first)?.location).toEqual({ start: 0, end: 0 });
  });

  it('keeps the fields that hold what was written and leaves the others out', () => {
    const [first] = ids as [number];
    setLocation(first, '{"page": "two", "section": "Sea", "start": 5}');
    expect(r.chunks.hit(first)?.location).toEqual({ section: 'Sea', start: 5, end: 0 });
  });
});
