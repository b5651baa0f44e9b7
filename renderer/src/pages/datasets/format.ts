import type { IntlShape } from 'react-intl';

export { formatBytes } from '../../../../shared/bytes.js';

/** `application/pdf` → `PDF`; the column is for recognising a file, the full type is in the tooltip. */
export function shortType(intl: IntlShape, mime: string | null, filename: string): string {
  const ext = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1];
  if (mime === null) return ext ? ext.toUpperCase() : '—';
  const known: Record<string, string> = {
    'application/pdf': 'PDF',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
    'text/html': 'HTML',
    'text/markdown': 'Markdown',
    'text/plain': intl.formatMessage({ id: 'datasets.files.typeText' }),
    'text/csv': 'CSV',
    'application/json': 'JSON',
  };
  return known[mime] ?? mime;
}

/**
 * A processing file's status, with how far reading and indexing got once the service says (its
 * `progress` within the status): a large file takes minutes, and a bare spinner reads as stuck.
 */
export function processingText(intl: IntlShape, progress: number): string {
  return progress > 0 ? intl.formatMessage({ id: 'datasets.status.processingProgress' }, { progress }) : intl.formatMessage({ id: 'datasets.status.processing' });
}
