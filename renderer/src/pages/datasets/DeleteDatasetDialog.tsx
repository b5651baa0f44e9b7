import { useState } from 'react';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { errorText } from '../../ui/error-text.js';
import { datasetHref } from './selection.js';

type Dataset = OutputOf<Operations['datasets.get']>;

/** Deleting cascades well beyond the files, so the question lists everything that goes. */
export function DeleteDatasetDialog({ dataset, open, onClose }: { dataset: Dataset; open: boolean; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await client.call('datasets.delete', { id: dataset.id });
      window.location.hash = datasetHref(null);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open={open}
      title={`Delete “${dataset.name}”?`}
      confirmLabel="Delete dataset"
      tone="danger"
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={() => {
        setError(null);
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
