import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCollection, parseBeir, parseCisi, parseCranfield, parseMedline, parseSquad } from '../../bench/relevance/collection.js';
import { trigramQuery } from '../../bench/relevance/trigram.js';
import { tempDir } from '../../support/core.js';

const CRAN_DOCS = `.I 1
.T
experimental investigation of the aerodynamics of a
wing in a slipstream .
.A
brenckman,m.
.B
j. ae. scs. 25, 1958, 324.
.W
experimental investigation of the aerodynamics of a
wing in a slipstream .
  an experimental study of a wing in a propeller slipstream .
.I 2
.T
simple shear flow past a flat plate .
.A
ting-yili
.B
department of aeronautical engineering.
.W
simple shear flow past a flat plate in an incompressible fluid .
`;
// Numbered with a gap, as the real cran.qry is: the qrels call them 1 and 2.
const CRAN_QUERIES = `.I 001
.W
what similarity laws must be obeyed when constructing aeroelastic models
of heated high speed aircraft .
.I 004
.W
what problems of heat conduction in composite slabs have been solved .
`;
const CRAN_QRELS = `1 2 1
1 1 4
2 1 -1
2 2 3 
`;

describe('Cranfield', () => {
  const c = parseCranfield(CRAN_DOCS, CRAN_QUERIES, CRAN_QRELS);

  it('reads documents with their title and abstract, whitespace folded', () => {
    expect(c.documents).toEqual([
      {
        id: '1',
        title: 'experimental investigation of the aerodynamics of a wing in a slipstream .',
        text: 'experimental investigation of the aerodynamics of a wing in a slipstream . an experimental study of a wing in a propeller slipstream .',
      },
      { id: '2', title: 'simple shear flow past a flat plate .', text: 'simple shear flow past a flat plate in an incompressible fluid .' },
    ]);
  });

  it('matches qrels to queries by position, not by the numbers in cran.qry', () => {
    expect(c.queries.get('1')).toMatch(/^what similarity laws/);
    expect(c.queries.get('2')).toMatch(/^what problems of heat conduction/);
  });

  it('turns codes 1 (complete answer) … 4 (minimum interest) into gains 4 … 1, and −1 into 0', () => {
    expect([...(c.qrels.get('1') ?? [])]).toEqual([
      ['2', 4],
      ['1', 1],
    ]);
    expect([...(c.qrels.get('2') ?? [])]).toEqual([
      ['1', 0],
      ['2', 2],
    ]);
  });

  it('refuses qrels for a query the query file does not have', () => {
    expect(() => parseCranfield(CRAN_DOCS, CRAN_QUERIES, '3 1 1\n')).toThrow(/query 3 is not in cran.qry/);
  });
});

const MED_DOCS = `.I 1
.W
correlation between maternal and fetal plasma levels of glucose and free
fatty acids .
.I 2
.W
changes of the nucleic acid and phospholipid levels of the livers .
`;
const MED_QUERIES = `.I 1
.W
 the crystalline lens in vertebrates, including humans.
.I 2
.W
 the relationship of blood and cerebrospinal fluid oxygen concentrations.
`;

describe('Medline', () => {
  it('reads the one-field records, and MED.REL lines as query 0 document grade', () => {
    const c = parseMedline(MED_DOCS, MED_QUERIES, '1 0 2 1\n2 0 1 1\n2 0 2 1\n');
    expect(c.documents).toEqual([
      { id: '1', title: '', text: 'correlation between maternal and fetal plasma levels of glucose and free fatty acids .' },
      { id: '2', title: '', text: 'changes of the nucleic acid and phospholipid levels of the livers .' },
    ]);
    expect(c.queries.get('1')).toBe('the crystalline lens in vertebrates, including humans.');
    expect([...(c.qrels.get('1') ?? [])]).toEqual([['2', 1]]);
    expect([...(c.qrels.get('2') ?? [])]).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
  });

  it('refuses judgements of a query MED.QRY does not have', () => {
    expect(() => parseMedline(MED_DOCS, MED_QUERIES, '7 0 1 1\n')).toThrow(/query 7 is not in MED.QRY/);
  });
});

describe('CISI', () => {
  // As the real files are: a cross-reference field after the abstract, a query with a source paper's record before its request, tab-separated judgements.
  const docs = `.I 1
.T
18 Editions of the Dewey Decimal Classifications
.A
Comaromi, J.P.
.W
   The present study is a history of the DEWEY Decimal
Classification.
.X
1	5	1
.I 2
.T 
Use Made of Technical Libraries
.W
This report is an analysis of 6300 acts of use.
`;
  const queries = `.I 1
.W
What problems and concerns are there in making up descriptive titles?
.I 2
.T
Rational Management of Communication
.A
Someone, A.
.W
How can actually pertinent data be retrieved?
`;

  it('reads titles and abstracts (not cross references), the request alone of a query, and binary judgements', () => {
    const c = parseCisi(docs, queries, '     1     2\t0\t0.000000\n     2     1\t0\t0.000000\n     2     2\t0\t0.000000\n');
    expect(c.documents).toEqual([
      { id: '1', title: '18 Editions of the Dewey Decimal Classifications', text: 'The present study is a history of the DEWEY Decimal Classification.' },
      { id: '2', title: 'Use Made of Technical Libraries', text: 'This report is an analysis of 6300 acts of use.' },
    ]);
    expect(c.queries.get('2')).toBe('How can actually pertinent data be retrieved?');
    expect([...(c.qrels.get('1') ?? [])]).toEqual([['2', 1]]);
    expect([...(c.qrels.get('2') ?? [])]).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
  });

  it('refuses judgements of a query CISI.QRY does not have', () => {
    expect(() => parseCisi(docs, queries, '9 1 0 0.0\n')).toThrow(/query 9 is not in CISI.QRY/);
  });
});

describe('BEIR format', () => {
  const corpus = '{"_id": "MED-1", "title": "Statins", "text": "Statin use and  survival."}\n{"_id": "MED-2", "title": "", "text": "Soy."}\n';
  const queries = '{"_id": "PLAIN-1", "text": "Do statins help?"}\n{"_id": "PLAIN-9", "text": "unjudged"}\n';
  const qrels = 'query-id\tcorpus-id\tscore\nPLAIN-1\tMED-1\t2\nPLAIN-1\tMED-2\t1\n';

  it('reads documents, keeps only judged queries, and uses the scores as graded gains', () => {
    const c = parseBeir('NF', corpus, queries, qrels);
    expect(c.documents).toEqual([
      { id: 'MED-1', title: 'Statins', text: 'Statin use and survival.' },
      { id: 'MED-2', title: '', text: 'Soy.' },
    ]);
    expect([...c.queries]).toEqual([['PLAIN-1', 'Do statins help?']]);
    expect([...(c.qrels.get('PLAIN-1') ?? [])]).toEqual([
      ['MED-1', 2],
      ['MED-2', 1],
    ]);
  });

  it('says which line is not JSON, and which query is missing', () => {
    expect(() => parseBeir('NF', '{"_id": "a"}\n[1]\n', queries, qrels)).toThrow(/corpus.jsonl:2/);
    expect(() => parseBeir('NF', corpus, '{"_id": "PLAIN-9", "text": "x"}\n', qrels)).toThrow(/PLAIN-1 is not in queries.jsonl/);
  });
});

// Two questions on one paragraph (JSQuAD writes `title [SEP] text`), one on another.
const SQUAD = JSON.stringify({
  data: [
    {
      title: '梅雨',
      paragraphs: [
        { context: '梅雨 [SEP] 梅雨は東アジアの気象現象である。', qas: [{ id: 'q1', question: '梅雨はどこの気象か？' }, { id: 'q2', question: '梅雨とは何か' }] },
        { context: '设备补贴是一千二百欧元。', qas: [{ id: 'q3', question: '设备补贴是多少？' }] },
      ],
    },
    { title: 'again', paragraphs: [{ context: '梅雨 [SEP] 梅雨は東アジアの気象現象である。', qas: [{ id: 'q4', question: '梅雨は何月？' }] }] },
  ],
});

describe('SQuAD format (JSQuAD, CMRC 2018)', () => {
  it('makes each distinct paragraph a document and each question a query whose one relevant document is its paragraph', () => {
    const c = parseSquad('JSQuAD', SQUAD);
    expect(c.documents).toEqual([
      { id: '0', title: '梅雨', text: '梅雨は東アジアの気象現象である。' },
      { id: '1', title: '', text: '设备补贴是一千二百欧元。' },
    ]);
    expect([...c.queries.keys()]).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(c.qrels.get('q3')).toEqual(new Map([['1', 1]]));
    expect(c.qrels.get('q4')).toEqual(new Map([['0', 1]]));
  });

  it('says when a file is not SQuAD-format', () => {
    expect(() => parseSquad('x', '{"version": 1}')).toThrow(/not a SQuAD-format file/);
  });

  it('turns a question into its trigrams for the baseline, each a phrase, OR-ed', () => {
    expect(trigramQuery('设备补贴是多少？')).toBe('"设备补" OR "备补贴" OR "补贴是" OR "贴是多" OR "是多少"');
    expect(trigramQuery('梅雨 は')).toBe('');
  });
});

describe('loading a folder', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('recognises each layout, and nothing in a folder with none', () => {
    const t = tempDir();
    remove = t.remove;
    const cran = join(t.dir, 'cran');
    mkdirSync(cran);
    writeFileSync(join(cran, 'cran.all.1400'), CRAN_DOCS);
    writeFileSync(join(cran, 'cran.qry'), CRAN_QUERIES);
    writeFileSync(join(cran, 'cranqrel'), CRAN_QRELS);
    expect(loadCollection(cran)?.name).toBe('Cranfield 1400');

    const beir = join(t.dir, 'nfcorpus');
    mkdirSync(join(beir, 'qrels'), { recursive: true });
    writeFileSync(join(beir, 'corpus.jsonl'), '{"_id": "d", "title": "t", "text": "x"}\n');
    writeFileSync(join(beir, 'queries.jsonl'), '{"_id": "q", "text": "x"}\n');
    writeFileSync(join(beir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq\td\t1\n');
    expect(loadCollection(beir)?.name).toBe('nfcorpus (BEIR test split)');

    const med = join(t.dir, 'med');
    mkdirSync(med);
    writeFileSync(join(med, 'MED.ALL'), MED_DOCS);
    writeFileSync(join(med, 'MED.QRY'), MED_QUERIES);
    writeFileSync(join(med, 'MED.REL'), '1 0 2 1\n');
    expect(loadCollection(med)?.documents).toHaveLength(2);

    const squad = join(t.dir, 'jsquad');
    mkdirSync(squad);
    writeFileSync(join(squad, 'valid-v1.3.json'), SQUAD);
    expect(loadCollection(squad)?.name).toBe('valid-v1.3 (questions → their paragraphs)');

    const empty = join(t.dir, 'empty');
    mkdirSync(empty);
    expect(loadCollection(empty)).toBeUndefined();
  });
});
