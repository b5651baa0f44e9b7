import { z } from 'zod';
import { prefixedId } from './common.js';
import { defineOperation } from './define.js';

/** A run of the source's text; the cited passage's runs are marked. */
export const SourceSegment = z.object({ text: z.string(), highlight: z.boolean() });

/** A data row of a table, numbered as the file's data rows are (1 = the first row under the header). */
export const SourceRow = z.object({ number: z.number().int(), cells: z.array(z.string()), highlight: z.boolean() });

/**
 * A cited passage where it sits in its file, for a reader: the whole PDF page(s), the table rows
 * around it under their header, the section it belongs to, or the text around it. Where it is
 * comes as a page, rows or section (never character offsets), for the reader to be told.
 */
export const PassageSource = z.object({
  artifact_id: z.string(),
  artifact_key: z.string(),
  dataset_id: z.string(),
  kind: z.enum(['pages', 'rows', 'section', 'text']),
  /** What is shown: `page`/`page_end` (PDF), `row_start`/`row_end` (the passage's rows), `section` (its heading path, " > " joined). */
  location: z.object({
    page: z.number().int().optional(),
    page_end: z.number().int().optional(),
    row_start: z.number().int().optional(),
    row_end: z.number().int().optional(),
    section: z.string().optional(),
  }),
  /** The file's size in pages or data rows, where it has them ("page 4 of 12"). */
  total_pages: z.number().int().optional(),
  total_rows: z.number().int().optional(),
  /** `pages`, `section`, `text`: the text shown, the passage marked. Empty for `rows`. */
  segments: z.array(SourceSegment),
  /** `rows`: the header and the rows around the passage. */
  table: z.object({ columns: z.array(z.string()), rows: z.array(SourceRow) }).nullable(),
  /** The page or section was longer than a reader's view: only the part around the passage is shown. */
  truncated: z.boolean(),
});

const Offset = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const readPassageSource = defineOperation({
  name: 'passages.source',
  summary:
    'A cited passage shown where it sits in its file: the PDF page, the CSV rows around it with the header, or the section of a Markdown, DOCX or HTML file, the passage marked. ' +
    '`start` and `end` are the offsets a citation’s (or a search result’s) `location` carries; `focus`, its `snippet`, narrows the mark in text to what the reader saw; table rows are marked whole, the rows the citation names. The file must be processed (`ready`), else a conflict; a file of a dataset the caller may not read is not found.',
  tag: 'Search',
  access: 'user',
  http: { method: 'GET', path: '/artifacts/{artifact_id}/source', status: 200 },
  input: z
    .object({
      artifact_id: prefixedId('art'),
      start: Offset,
      end: Offset,
      /** The snippet the reader saw (a citation's or search result's `snippet`): the part of the passage located and marked. */
      focus: z.string().max(4000).optional(),
    })
    .refine((v) => v.end >= v.start, { message: '`end` must not be before `start`.', path: ['end'] }),
  output: PassageSource,
});
