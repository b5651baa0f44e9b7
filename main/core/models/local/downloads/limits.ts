import { formatBytes } from '../../../../../shared/bytes.js';
import type { Config } from '../../../../../shared/config.js';
import { ServiceError } from '../../../../../shared/errors.js';

/**
 * What bounds a download whatever its server says: a largest file (`max_download_gb`) and free
 * space it never eats into (`download_reserve_gb`). A server that states no size, or states one
 * and sends another, is held to these as it streams, not trusted.
 */
export interface DownloadLimits {
  maxBytes: number;
  reserveBytes: number;
}

const GiB = 1024 ** 3;

export function limitsOf(config: Config['local_models']): DownloadLimits {
  return { maxBytes: Math.floor(config.max_download_gb * GiB), reserveBytes: Math.floor(config.download_reserve_gb * GiB) };
}

/** Bytes written between free-space checks while a download streams: the most it can overshoot the reserve. */
export const SPACE_CHECK_EVERY_BYTES = 1 << 20;

/**
 * Download failures callers can tell apart: the sentence stored as the download's `error` starts
 * with the code's words (`Too large:`, `Size mismatch:`, `Not enough disk space:`).
 */
export const tooLargeStated = (stated: number, limits: DownloadLimits) =>
  `Too large: the server states the file is ${formatBytes(stated)}, more than the ${formatBytes(limits.maxBytes)} a download may be ([local_models] max_download_gb). Raise the limit to download it.`;

export const tooLargeSent = (limits: DownloadLimits) =>
  `Too large: the server sent more than the ${formatBytes(limits.maxBytes)} a download may be ([local_models] max_download_gb) without stating the file's size; the download was stopped and its bytes removed.`;

export const sentMoreThanStated = (stated: number) =>
  `Size mismatch: the server stated the file is ${stated} bytes but sent more; the download was stopped and its bytes removed.`;

export const endedShortOfStated = (stated: number, actual: number) =>
  `Size mismatch: the server stated the file is ${stated} bytes but it ends after ${actual}; the download was stopped and its bytes removed.`;

/** Why there is no room, or null when there is: `needed` more bytes (null: unknown) must fit above the reserve. */
export function noRoom(free: number | null, needed: number | null, limits: DownloadLimits, dir: string): string | null {
  if (free === null) return null;
  const need = Math.max(0, needed ?? 0);
  if (free - need >= limits.reserveBytes) return null;
  const keep = limits.reserveBytes > 0 ? ` and ${formatBytes(limits.reserveBytes)} must stay free ([local_models] download_reserve_gb)` : '';
  const what = needed === null ? `the download would leave less than ${formatBytes(limits.reserveBytes)} free ([local_models] download_reserve_gb)` : `the model needs ${formatBytes(need)} more${keep}`;
  return `Not enough disk space: ${what}, but only ${formatBytes(free)} are free where Parley keeps its data (${dir}). Free some space and download again.`;
}

/**
 * A URL with a user name or password is refused before it is stored anywhere: the credentials
 * would sit in the database in clear, be echoed in every listing and error, and be sent to
 * whatever host a redirect names. The message never repeats the URL.
 */
export function refuseCredentials(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // the operation's schema already refuses what is not a URL
  }
  if (parsed.username || parsed.password) {
    throw new ServiceError('invalid_argument', 'The download URL must not contain a user name or password (user:password@host). Give a URL that needs no credentials.', [
      { path: 'url', message: 'must not contain a user name or password' },
    ]);
  }
}

/** Whether a redirect target carries credentials (never followed: they would be sent on). */
export const hasCredentials = (url: URL) => url.username !== '' || url.password !== '';

/** Whether a stored URL carries credentials (a row from before they were refused). */
export function urlHasCredentials(url: string): boolean {
  try {
    return hasCredentials(new URL(url));
  } catch {
    return false;
  }
}

/** A URL as shown to anyone: credentials a row from before they were refused may hold are cut out. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (!hasCredentials(parsed)) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

/** Why a download stored with credentials (before they were refused) is not resumed. */
export const CREDENTIALS_NOT_RESUMED = 'This download was started from a URL with a user name or password, which Parley no longer uses: it was not resumed. Download it again from a URL that needs no credentials.';
