import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Model } from '../../../../shared/operations/models.js';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { CheckIcon, PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';
import { splitFieldErrors, type ModelFieldErrors } from './model-form-errors.js';

type RemoteProvider = 'openai_compatible' | 'anthropic';

const PROVIDER_HINTS: Record<RemoteProvider, { url: string; urlHint: string; model: string }> = {
  openai_compatible: { url: 'https://api.example.com/v1', urlHint: 'The base URL, ending before /chat/completions.', model: 'e.g. gpt-4o-mini' },
  anthropic: { url: 'https://api.anthropic.com', urlHint: 'Optional: leave empty for Anthropic’s own API.', model: 'e.g. claude-sonnet-4-5' },
};

export interface ModelFormProps {
  /** The model to edit; a new one is added without it. */
  model?: Model | undefined;
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * Adds or edits an endpoint model: OpenAI-compatible (OpenAI, vLLM, Ollama, LM Studio…) or
 * Anthropic. "List models" asks the endpoint itself which ids it serves; a refusal of the service
 * is shown under the field it names.
 */
export function ModelForm({ model, onSaved, onCancel }: ModelFormProps) {
  const editing = model !== undefined;
  const [provider, setProvider] = useState<RemoteProvider>(model?.provider === 'anthropic' ? 'anthropic' : 'openai_compatible');
  const [name, setName] = useState(model?.name ?? '');
  const [endpoint, setEndpoint] = useState(model?.endpoint_url ?? '');
  const [modelId, setModelId] = useState(model?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [forgetKey, setForgetKey] = useState(false);
  const [errors, setErrors] = useState<ModelFieldErrors>({});
  const [offered, setOffered] = useState<string[] | null>(null);
  const hints = PROVIDER_HINTS[provider];
  // The form opens above the table: focusing its first field brings it into view (Edit is often far below).
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  /** Checks what the service would refuse for sure, so the person sees it at once, under the field. */
  function missing(): ModelFieldErrors {
    return {
      ...(name.trim() ? {} : { name: 'Give the model a name people will recognise.' }),
      ...(provider === 'openai_compatible' && !endpoint.trim() ? { endpoint_url: 'The endpoint URL is needed for an OpenAI-compatible model.' } : {}),
      ...(modelId.trim() ? {} : { model: 'Type the provider’s model id, or list the endpoint’s models and pick one.' }),
    };
  }

  const save = useAction(async () => {
    try {
      if (editing) {
        await client.call('models.update', {
          id: model.id,
          name: name.trim(),
          endpoint_url: endpoint.trim() ? endpoint.trim() : null,
          model: modelId.trim(),
          ...(apiKey ? { api_key: apiKey } : forgetKey ? { api_key: null } : {}),
        });
      } else {
        await client.call('models.create', {
          name: name.trim(),
          provider,
          ...(endpoint.trim() ? { endpoint_url: endpoint.trim() } : {}),
          model: modelId.trim(),
          ...(apiKey ? { api_key: apiKey } : {}),
        });
      }
    } catch (error) {
      const split = splitFieldErrors(error);
      setErrors(split.fields);
      if (split.rest) throw new Error(split.rest);
      return;
    }
    onSaved();
  });

  const probe = useAction(async () => {
    setOffered(null);
    if (provider === 'openai_compatible' && !endpoint.trim()) {
      setErrors({ endpoint_url: 'Give the endpoint URL first: its models are listed from there.' });
      return;
    }
    try {
      const found = await client.call('models.probe', {
        provider,
        ...(endpoint.trim() ? { endpoint_url: endpoint.trim() } : {}),
        ...(apiKey ? { api_key: apiKey } : {}),
        ...(editing && !forgetKey ? { model_id: model.id } : {}),
      });
      setErrors({});
      setOffered(found.data.map((m) => m.id));
      if (!modelId.trim() && found.data[0]) setModelId(found.data[0].id);
    } catch (error) {
      const split = splitFieldErrors(error);
      setErrors(split.fields);
      if (split.rest) throw new Error(split.rest);
    }
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = missing();
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    void save.run();
  }

  const label = editing ? `Edit ${model.name}` : 'Add a model endpoint';
  return (
    <form className="model-form" aria-label={label} onSubmit={submit} noValidate>
      {editing ? <h3 className="model-form-title">Edit “{model.name}”</h3> : null}
      <div className="form-grid">
        {editing ? null : (
          <SelectField
            label="Provider"
            value={provider}
            onChange={(e) => {
              setProvider(e.target.value as RemoteProvider);
              setOffered(null);
              setErrors({});
            }}
          >
            <option value="openai_compatible">OpenAI-compatible (OpenAI, vLLM, Ollama, LM Studio…)</option>
            <option value="anthropic">Anthropic</option>
          </SelectField>
        )}
        <TextField ref={nameRef} label="Name" placeholder="e.g. Team GPU server" maxLength={100} value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
        <TextField
          label="Endpoint URL"
          type="url"
          placeholder={hints.url}
          value={endpoint}
          error={errors.endpoint_url}
          onChange={(e) => setEndpoint(e.target.value)}
          hint={editing && model.has_api_key ? `${hints.urlHint} Moving it to another server forgets the stored key.` : hints.urlHint}
        />
        <TextField
          label="API key"
          type="password"
          autoComplete="off"
          value={apiKey}
          error={errors.api_key}
          placeholder={editing && model.has_api_key && !forgetKey ? 'Stored: leave empty to keep it' : undefined}
          onChange={(e) => setApiKey(e.target.value)}
          hint={provider === 'anthropic' ? 'Needed by Anthropic. Stored encrypted and never shown again.' : 'Optional. Stored encrypted and never shown again.'}
        />
        <div className="model-id-field">
          <TextField label="Model" placeholder={hints.model} value={modelId} error={errors.model} onChange={(e) => setModelId(e.target.value)} hint="The provider’s name for the model." />
          <Button className="model-probe" busy={probe.busy} onClick={() => void probe.run()}>
            List models
          </Button>
          {offered !== null && offered.length > 0 ? (
            <SelectField
              label="Models at this endpoint"
              fieldClassName="model-offered"
              value={offered.includes(modelId) ? modelId : ''}
              onChange={(e) => e.target.value && setModelId(e.target.value)}
              hint={`${offered.length} found; picking one fills in Model.`}
            >
              <option value="">Pick a model…</option>
              {offered.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </SelectField>
          ) : null}
          {offered !== null && offered.length === 0 ? <p className="field-hint model-offered">The endpoint lists no models; type the model’s id.</p> : null}
        </div>
      </div>
      {editing && model.has_api_key ? (
        <label className="checkbox-row">
          <input type="checkbox" checked={forgetKey} onChange={(e) => setForgetKey(e.target.checked)} disabled={apiKey.length > 0} />
          Remove the stored API key
        </label>
      ) : null}
      <FormError message={probe.error ?? save.error} />
      <div className="model-form-actions">
        <Button onClick={onCancel} disabled={save.busy}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" icon={editing ? <CheckIcon /> : <PlusIcon />} busy={save.busy}>
          {editing ? 'Save changes' : 'Add model'}
        </Button>
      </div>
    </form>
  );
}
