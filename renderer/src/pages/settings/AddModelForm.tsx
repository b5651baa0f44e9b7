import { useState, type FormEvent } from 'react';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';

/** Registers an OpenAI-compatible endpoint (OpenAI itself, vLLM, Ollama, LM Studio…) as a model. */
export function AddModelForm({ onAdded, onCancel }: { onAdded: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const add = useAction(async () => {
    if (!name.trim() || !endpoint.trim() || !model.trim()) throw new Error('A name, the endpoint URL and the model are all needed.');
    await client.call('models.create', {
      name: name.trim(),
      provider: 'openai_compatible',
      endpoint_url: endpoint.trim(),
      model: model.trim(),
      ...(apiKey ? { api_key: apiKey } : {}),
    });
    onAdded();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void add.run();
  }

  return (
    <form className="model-form" aria-label="Add an OpenAI-compatible endpoint" onSubmit={submit} noValidate>
      <div className="form-grid">
        <TextField label="Name" placeholder="e.g. Team GPU server" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          label="Endpoint URL"
          type="url"
          placeholder="https://api.example.com/v1"
          value={endpoint}
          onChange={(e) => setEndpoint(e.target.value)}
          hint="The base URL, ending before /chat/completions."
        />
        <TextField label="Model" placeholder="e.g. gpt-4o-mini" value={model} onChange={(e) => setModel(e.target.value)} hint="The provider’s name for the model." />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          hint="Optional. Stored encrypted and never shown again."
        />
      </div>
      <FormError message={add.error} />
      <div className="model-form-actions">
        <Button onClick={onCancel} disabled={add.busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={add.busy}>
          Add model
        </Button>
      </div>
    </form>
  );
}
