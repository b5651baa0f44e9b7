import { FormattedMessage, useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { useAction } from '../../ui/useAction.js';
import { datasetHref } from './selection.js';

type Dataset = OutputOf<Operations['datasets.get']>;

/** Deleting cascades well beyond the files, so the question lists everything that goes. */
export function DeleteDatasetDialog({ dataset, open, onClose }: { dataset: Dataset; open: boolean; onClose: () => void }) {
  const intl = useIntl();
  const remove = useAction(async () => {
    await client.call('datasets.delete', { id: dataset.id });
    window.location.hash = datasetHref(null);
  });

  return (
    <ConfirmDialog
      open={open}
      title={intl.formatMessage({ id: 'datasets.delete.title' }, { name: dataset.name })}
      confirmLabel={intl.formatMessage({ id: 'datasets.common.deleteDataset' })}
      tone="danger"
      busy={remove.busy}
      error={remove.error}
      onConfirm={() => void remove.run()}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
    >
      <p>{intl.formatMessage({ id: 'datasets.delete.intro' })}</p>
      <ul className="dialog-list">
        <li>
          <FormattedMessage id="datasets.delete.files" values={{ b: (chunks) => <strong>{chunks}</strong> }} />
        </li>
        <li>{intl.formatMessage({ id: 'datasets.delete.threads' })}</li>
        <li>{intl.formatMessage({ id: 'datasets.delete.thoughts' })}</li>
      </ul>
      <p>{intl.formatMessage({ id: 'datasets.delete.outro' })}</p>
    </ConfirmDialog>
  );
}
