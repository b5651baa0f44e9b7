import type { Operations, OutputOf } from '../../../../shared/operations/index.js';

export type ConfigState = OutputOf<Operations['admin.config.get']>;

/** Where a version came from, as the pane says it. */
export const SOURCE_LABELS: Record<ConfigState['source'], string> = {
  default: 'Defaults',
  file: 'parley.toml edited by hand',
  admin: 'Saved here',
  rollback: 'Restored',
};
