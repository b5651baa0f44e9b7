import type { IntlShape } from 'react-intl';

/** A passage's location as the service sends it (a citation's, a search result's, a source view's); offsets are ignored. */
export type PassageLocation = Readonly<Record<string, string | number | undefined>>;

/**
 * Where a passage is, as a person says it: "page 4", "pages 4–5", "rows 12–18", "§ Handbook > Allowances"
 * (its section's heading path: a bare "Allowances" could be any of several), joined by commas. Character offsets are how the
 * index finds a passage, not something a reader can use: never shown. The one wording for
 * citations, the source viewer and dataset search.
 */
export function humanLocation(location: PassageLocation, intl: IntlShape): string {
  const parts: string[] = [];
  const { page, page_end: pageEnd, row_start: rowStart, row_end: rowEnd, section } = location;
  if (page !== undefined) {
    parts.push(
      pageEnd !== undefined && pageEnd !== page
        ? intl.formatMessage({ id: 'ui.location.pages' }, { from: page, to: pageEnd })
        : intl.formatMessage({ id: 'ui.location.page' }, { page }),
    );
  }
  if (rowStart !== undefined) {
    parts.push(
      rowEnd !== undefined && rowEnd !== rowStart
        ? intl.formatMessage({ id: 'ui.location.rows' }, { from: rowStart, to: rowEnd })
        : intl.formatMessage({ id: 'ui.location.row' }, { row: rowStart }),
    );
  }
  if (section !== undefined && String(section).trim() !== '') parts.push(intl.formatMessage({ id: 'ui.location.section' }, { section: String(section).trim() }));
  return parts.join(intl.formatMessage({ id: 'ui.location.separator' }));
}
