import type { IntlShape } from 'react-intl';
import type { Folder } from '../../../../../shared/operations/folders.js';
import type { MessageId } from '../../../i18n/catalogues/index.js';

/** The folder's last path segment, as a person names it ("Notes" for /home/ann/Notes). */
export function folderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const last = trimmed.split(/[\\/]/).pop();
  return last || path;
}

export const STATUS_LABELS: Record<Folder['status'], MessageId> = {
  scanning: 'datasets.folders.status.scanning',
  watching: 'datasets.folders.status.watching',
  paused: 'datasets.folders.status.paused',
  error: 'datasets.folders.status.error',
};

export const STATUS_TONES: Record<Folder['status'], string> = {
  scanning: 'badge-accent',
  watching: 'badge-success',
  paused: '',
  error: 'badge-danger',
};

/** Files read to an end (ready or failed) of those found: the scan's progress. */
export function scanShare(folder: Folder): number {
  const { seen, ready, failed } = folder.files;
  return seen === 0 ? 0 : (ready + failed) / seen;
}

/** Still moving: found files not read yet, or a scan under way. The page then reads it again soon. */
export function isBusy(folder: Folder): boolean {
  return folder.status === 'scanning' || (folder.status !== 'paused' && folder.files.pending > 0);
}

/** An interval as a person reads it: `60 s`, `2.5 s`. */
export function seconds(intl: IntlShape, n: number): string {
  const rounded = n >= 10 ? Math.round(n) : n >= 1 ? Number(n.toFixed(1)) : Number(n.toPrecision(1));
  return intl.formatMessage({ id: 'datasets.folders.seconds' }, { n: intl.formatNumber(rounded, { maximumFractionDigits: 20 }) });
}

/** One line on how changes reach the dataset, so that "polling" is not a surprise. */
export function followText(intl: IntlShape, folder: Folder): string {
  switch (folder.status) {
    case 'scanning':
      return intl.formatMessage({ id: 'datasets.folders.follow.scanning' });
    case 'paused':
      return intl.formatMessage({ id: 'datasets.folders.follow.paused' });
    case 'error':
      return folder.error?.detail ?? intl.formatMessage({ id: 'datasets.folders.follow.error' });
    case 'watching':
      if (folder.watch === 'events') return intl.formatMessage({ id: 'datasets.folders.follow.events' });
      return folder.poll_seconds === null
        ? intl.formatMessage({ id: 'datasets.folders.follow.polling' })
        : intl.formatMessage({ id: 'datasets.folders.follow.pollingEvery' }, { interval: seconds(intl, folder.poll_seconds) });
  }
}

/** Globs as typed: one per line or separated by commas; blanks dropped. */
export function parseGlobs(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((g) => g.trim())
    .filter((g) => g.length > 0);
}
