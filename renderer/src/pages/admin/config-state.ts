import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import type { MessageId } from '../../i18n/catalogues/index.js';

export type ConfigState = OutputOf<Operations['admin.config.get']>;

/** Where a version came from, as the pane says it. */
export const SOURCE_LABELS: Record<ConfigState['source'], MessageId> = {
  default: 'admin.configSource.default',
  file: 'admin.configSource.file',
  admin: 'admin.configSource.admin',
  rollback: 'admin.configSource.rollback',
};
