import { useState, type FormEvent } from 'react';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { PlusIcon } from '../../ui/icons.js';
import { errorText } from '../../ui/error-text.js';

/** Registers an OpenAI-compatible endpoint (OpenAI itself, vLLM, Ollama, LM Studio…) as a model. */
export function AddModelForm({ onAdded, onCancel }: { onAdded: () => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [model, setModel] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim() || !endpoint.trim() || !model.trim()) {
      setError('A name, the endpoint URL and the model are all needed.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await client.call('models.create', {
        name: name.trim(),
        provider: 'openai_compatible',
        endpoint_url: endpoint.trim(),
        model: model.trim(),
        ...(apiKey ? { api_key: apiKey } : {}),
      });
      onAdded();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }

  return (
    <form className="model-form" aria-label="Add an OpenAI-compatible endpoint" onSubmit={(e) => void submit(e)} noValidate>
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
      <FormError message={error} />
      <div className="model-form-actions">
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={busy}>
          Add model
        </Button>
      </div>
    </form>
  );
}
