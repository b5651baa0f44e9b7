import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';

type Dataset = OutputOf<Operations['datasets.create']>;

/** Name and description of a new dataset; `onCreated` opens it, ready for files. */
export function CreateDatasetForm({ onCreated }: { onCreated: (dataset: Dataset) => void }) {
  const intl = useIntl();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(async () => {
    if (!name.trim()) throw new Error(intl.formatMessage({ id: 'datasets.create.nameRequired' }));
    onCreated(await client.call('datasets.create', { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) }));
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void create.run();
  }

  return (
    <form className="dataset-create" onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'datasets.create.formLabel' })}>
      <TextField
        label={intl.formatMessage({ id: 'datasets.common.name' })}
        placeholder={intl.formatMessage({ id: 'datasets.create.namePlaceholder' })}
        maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
      <TextField
        label={intl.formatMessage({ id: 'datasets.common.description' })}
        placeholder={intl.formatMessage({ id: 'datasets.create.descriptionPlaceholder' })}
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <div className="dataset-create-actions">
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={create.busy}>
          {intl.formatMessage({ id: 'datasets.create.submit' })}
        </Button>
      </div>
    </form>
  );
}
