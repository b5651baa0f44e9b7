import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { useAction } from '../../ui/useAction.js';
import { datasetHref } from './selection.js';

type Dataset = OutputOf<Operations['datasets.get']>;

/** Deleting cascades well beyond the files, so the question lists everything that goes. */
export function DeleteDatasetDialog({ dataset, open, onClose }: { dataset: Dataset; open: boolean; onClose: () => void }) {
  const remove = useAction(async () => {
    await client.call('datasets.delete', { id: dataset.id });
    window.location.hash = datasetHref(null);
  });

  return (
    <ConfirmDialog
      open={open}
      title={`Delete “${dataset.name}”?`}
      confirmLabel="Delete dataset"
      tone="danger"
      busy={remove.busy}
      error={remove.error}
      onConfirm={() => void remove.run()}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
    >
      <p>This deletes, for good:</p>
      <ul className="dialog-list">
        <li>
          <strong>all its files</strong> and every passage (chunk) indexed from them;
        </li>
        <li>the chat threads’ configurations that use this dataset (the threads stay, without it);</li>
        <li>the agent thoughts recorded while answering from it.</li>
      </ul>
      <p>Messages already written keep their text. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
