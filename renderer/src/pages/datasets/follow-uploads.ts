import type { IntlShape } from 'react-intl';
import { ServiceError } from '../../../../shared/errors.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { getIntl } from '../../i18n/intl.js';
import { reportFailure } from '../../ui/report-failure.js';
import { toast, type ToastLink } from '../../ui/toast.js';
import { failureText } from './ArtifactStatus.js';
import { datasetHref, openDatasetId } from './selection.js';
import type { FileUpload } from './upload.js';
import { isInFlight } from './useArtifacts.js';

type Dataset = Pick<OutputOf<Operations['datasets.get']>, 'id' | 'kb_id' | 'name'>;

interface Followed {
  dataset: Dataset;
  keys: Set<string>;
  /** Whether the last check failed: a check failing every tick is said once. */
  failing: boolean;
}

const POLL_MS = 2000;
const followed = new Map<string, Followed>();
let timer: number | null = null;
let checking = false;

/**
 * Files sent from this window are followed until they are ready or failed, whichever page is open:
 * the dataset's own page stops polling when it closes. A failure is said in a toast unless that
 * dataset is open, where its table already says it.
 */
export function followArtifacts(dataset: Dataset, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const entry = followed.get(dataset.kb_id) ?? { dataset, keys: new Set<string>(), failing: false };
  for (const key of keys) entry.keys.add(key);
  followed.set(dataset.kb_id, entry);
  timer ??= window.setInterval(() => void checkAll(), POLL_MS);
}

/** After an upload: its sent files are followed, and files refused or not sent are said if out of view. */
export function followUpload(dataset: Dataset, uploads: readonly FileUpload[]): void {
  followArtifacts(
    dataset,
    uploads.filter((u) => u.state === 'sent').map((u) => u.key),
  );
  const failed = uploads.filter((u) => u.state === 'failed' || u.state === 'refused');
  if (failed.length === 0 || isOpen(dataset)) return;
  const intl = getIntl();
  toast.error(
    intl.formatMessage({ id: 'datasets.toast.notUploaded' }, { count: failed.length, key: failed[0]?.key ?? '', dataset: dataset.name }),
    failed.map((u) => `${u.key}: ${u.error}`).join(' '),
    linkTo(intl, dataset),
  );
}

/** Says that an upload to `dataset` broke off, unless its page (which shows it) is open. */
export function reportUploadError(dataset: Dataset, error: unknown): void {
  const intl = getIntl();
  if (!isOpen(dataset)) reportFailure(intl.formatMessage({ id: 'datasets.toast.uploadBroke' }, { dataset: dataset.name }), error, linkTo(intl, dataset));
}

function isOpen(dataset: Dataset): boolean {
  return openDatasetId() === dataset.id;
}

function linkTo(intl: IntlShape, dataset: Dataset): ToastLink {
  return { label: intl.formatMessage({ id: 'datasets.toast.open' }, { dataset: dataset.name }), href: datasetHref(dataset.id) };
}

async function checkAll(): Promise<void> {
  if (checking) return;
  checking = true;
  try {
    for (const entry of followed.values()) {
      await Promise.all([...entry.keys].map((key) => check(entry, key)));
      if (entry.keys.size === 0) followed.delete(entry.dataset.kb_id);
    }
  } finally {
    checking = false;
  }
  if (followed.size === 0 && timer !== null) {
    window.clearInterval(timer);
    timer = null;
  }
}

async function check(entry: Followed, key: string): Promise<void> {
  const { dataset } = entry;
  const intl = getIntl();
  let artifact;
  try {
    artifact = await client.call('artifacts.get', { kb_id: dataset.kb_id, key });
    entry.failing = false;
  } catch (error) {
    // Removed meanwhile (the file, or the whole dataset): nothing left to follow.
    if (error instanceof ServiceError && error.code === 'not_found') return void entry.keys.delete(key);
    const first = !entry.failing;
    entry.failing = true;
    if (first && !isOpen(dataset)) reportFailure(intl.formatMessage({ id: 'datasets.toast.checkFailed' }, { dataset: dataset.name }), error, linkTo(intl, dataset));
    return;
  }
  if (isInFlight(artifact)) return;
  entry.keys.delete(key);
  if (artifact.status === 'failed' && !isOpen(dataset)) {
    toast.error(intl.formatMessage({ id: 'datasets.toast.notAdded' }, { key, dataset: dataset.name }), failureText(intl, artifact), linkTo(intl, dataset));
  }
}
