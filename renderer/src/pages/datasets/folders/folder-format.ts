import type { Folder } from '../../../../../shared/operations/folders.js';

/** The folder's last path segment, as a person names it ("Notes" for /home/ann/Notes). */
export function folderName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const last = trimmed.split(/[\\/]/).pop();
  return last || path;
}

export const STATUS_LABELS: Record<Folder['status'], string> = {
  scanning: 'Scanning',
  watching: 'In sync',
  paused: 'Paused',
  error: 'Needs attention',
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
export const seconds = (n: number): string => `${n >= 10 ? Math.round(n) : n >= 1 ? Number(n.toFixed(1)) : Number(n.toPrecision(1))} s`;

/** One line on how changes reach the dataset, so that "polling" is not a surprise. */
export function followText(folder: Folder): string {
  switch (folder.status) {
    case 'scanning':
      return 'Reading the folder for the first time…';
    case 'paused':
      return 'Paused: changes on disk wait until you resume.';
    case 'error':
      return folder.error?.detail ?? 'The folder cannot be read.';
    case 'watching':
      return folder.watch === 'events'
        ? 'Watching for changes: edits, new files, renames and deletions show up within seconds.'
        : `Checking for changes ${folder.poll_seconds === null ? 'periodically' : `every ${seconds(folder.poll_seconds)}`}: this folder cannot be watched live.`;
  }
}

/** Globs as typed: one per line or separated by commas; blanks dropped. */
export function parseGlobs(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((g) => g.trim())
    .filter((g) => g.length > 0);
}
