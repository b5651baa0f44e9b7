import { useEffect, useState } from 'react';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { ServiceError } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { TextField } from '../../ui/Field.js';
import { useAction } from '../../ui/useAction.js';

type Dataset = OutputOf<Operations['datasets.get']>;

/** Renames a dataset or changes its description; a refused field says so under that field. */
export function RenameDatasetDialog({ dataset, open, onClose, onSaved }: { dataset: Dataset; open: boolean; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState(dataset.name);
  const [description, setDescription] = useState(dataset.description ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setName(dataset.name);
    setDescription(dataset.description ?? '');
    setNameError(null);
  }, [open, dataset.name, dataset.description]);

  const save = useAction(async () => {
    if (!name.trim()) {
      setNameError('Give the dataset a name.');
      return;
    }
    try {
      await client.call('datasets.update', { id: dataset.id, name: name.trim(), description: description.trim() ? description.trim() : null });
    } catch (error) {
      const field = error instanceof ServiceError ? error.errors?.find((e) => e.path === 'name') : undefined;
      if (field) {
        setNameError(`The name ${field.message}.`);
        return;
      }
      throw error;
    }
    onSaved();
    onClose();
  });

  return (
    <ConfirmDialog
      open={open}
      title="Rename dataset"
      confirmLabel="Save"
      busy={save.busy}
      error={save.error}
      onConfirm={() => {
        setNameError(null);
        void save.run();
      }}
      onCancel={() => {
        save.reset();
        onClose();
      }}
    >
      <div className="stack-form">
        <TextField label="Name" value={name} maxLength={200} autoComplete="off" error={nameError} onChange={(e) => setName(e.target.value)} />
        <TextField label="Description" value={description} maxLength={2000} autoComplete="off" hint="Optional; shown under the name." onChange={(e) => setDescription(e.target.value)} />
      </div>
    </ConfirmDialog>
  );
}
