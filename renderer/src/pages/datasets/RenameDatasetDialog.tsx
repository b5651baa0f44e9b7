import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { ServiceError } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { TextField } from '../../ui/Field.js';
import { useAction } from '../../ui/useAction.js';

type Dataset = OutputOf<Operations['datasets.get']>;

/** Renames a dataset or changes its description; a refused field says so under that field. */
export function RenameDatasetDialog({ dataset, open, onClose, onSaved }: { dataset: Dataset; open: boolean; onClose: () => void; onSaved: () => void }) {
  const intl = useIntl();
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
      setNameError(intl.formatMessage({ id: 'datasets.rename.nameRequired' }));
      return;
    }
    try {
      await client.call('datasets.update', { id: dataset.id, name: name.trim(), description: description.trim() ? description.trim() : null });
    } catch (error) {
      const field = error instanceof ServiceError ? error.errors?.find((e) => e.path === 'name') : undefined;
      if (field) {
        setNameError(intl.formatMessage({ id: 'datasets.rename.nameRefused' }, { problem: field.message }));
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
      title={intl.formatMessage({ id: 'datasets.rename.title' })}
      confirmLabel={intl.formatMessage({ id: 'datasets.rename.save' })}
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
        <TextField label={intl.formatMessage({ id: 'datasets.common.name' })} value={name} maxLength={200} autoComplete="off" error={nameError} onChange={(e) => setName(e.target.value)} />
        <TextField
          label={intl.formatMessage({ id: 'datasets.common.description' })}
          value={description}
          maxLength={2000}
          autoComplete="off"
          hint={intl.formatMessage({ id: 'datasets.rename.descriptionHint' })}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
    </ConfirmDialog>
  );
}
