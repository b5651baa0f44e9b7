import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Model } from '../../../../shared/operations/models.js';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { CheckIcon, PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';
import { splitFieldErrors, type ModelFieldErrors } from './model-form-errors.js';
import { AddOfferedModels } from './AddOfferedModels.js';
import { nameAfterPick } from './picked-name.js';
import type { MessageId } from '../../i18n/catalogues/index.js';

type RemoteProvider = 'openai_compatible' | 'anthropic';

const PROVIDER_HINTS: Record<RemoteProvider, { url: string; urlHint: MessageId; model: MessageId }> = {
  openai_compatible: { url: 'https://api.example.com/v1', urlHint: 'settings.modelForm.openai.urlHint', model: 'settings.modelForm.openai.modelPlaceholder' },
  anthropic: { url: 'https://api.anthropic.com', urlHint: 'settings.modelForm.anthropic.urlHint', model: 'settings.modelForm.anthropic.modelPlaceholder' },
};

export interface ModelFormProps {
  /** The model to edit; a new one is added without it. */
  model?: Model | undefined;
  onSaved: () => void;
  onCancel: () => void;
  /** Some of the endpoint's listed models were added at once: the list shows them while the form stays. */
  onAdded?: () => void;
}

/**
 * Adds or edits an endpoint model: OpenAI-compatible (OpenAI, vLLM, Ollama, LM Studio…) or
 * Anthropic. "List models" asks the endpoint itself which ids it serves; a refusal of the service
 * is shown under the field it names.
 */
export function ModelForm({ model, onSaved, onCancel, onAdded }: ModelFormProps) {
  const intl = useIntl();
  const editing = model !== undefined;
  const [provider, setProvider] = useState<RemoteProvider>(model?.provider === 'anthropic' ? 'anthropic' : 'openai_compatible');
  const [name, setName] = useState(model?.name ?? '');
  const [endpoint, setEndpoint] = useState(model?.endpoint_url ?? '');
  const [modelId, setModelId] = useState(model?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [forgetKey, setForgetKey] = useState(false);
  const [vision, setVision] = useState(model?.capabilities.vision ?? false);
  const [errors, setErrors] = useState<ModelFieldErrors>({});
  const [offered, setOffered] = useState<string[] | null>(null);
  // The name a pick from the list filled in, not typed: the next pick may replace it.
  const [autoName, setAutoName] = useState<string | null>(null);
  const hints = PROVIDER_HINTS[provider];
  const visionHintId = useId();
  // The form opens above the table: focusing its first field brings it into view (Edit is often far below).
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  function pick(id: string) {
    setModelId(id);
    const next = nameAfterPick(name, autoName, id);
    if (next !== name) {
      setName(next);
      setAutoName(next);
    }
  }

  /** Checks what the service would refuse for sure, so the person sees it at once, under the field. */
  function missing(): ModelFieldErrors {
    return {
      ...(name.trim() ? {} : { name: intl.formatMessage({ id: 'settings.modelForm.missing.name' }) }),
      ...(provider === 'openai_compatible' && !endpoint.trim() ? { endpoint_url: intl.formatMessage({ id: 'settings.modelForm.missing.endpointUrl' }) } : {}),
      ...(modelId.trim() ? {} : { model: intl.formatMessage({ id: 'settings.modelForm.missing.model' }) }),
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
          capabilities: { vision },
        });
      } else {
        await client.call('models.create', {
          name: name.trim(),
          provider,
          ...(endpoint.trim() ? { endpoint_url: endpoint.trim() } : {}),
          model: modelId.trim(),
          ...(apiKey ? { api_key: apiKey } : {}),
          capabilities: { vision },
        });
      }
    } catch (error) {
      const split = splitFieldErrors(error, intl);
      setErrors(split.fields);
      if (split.rest) throw new Error(split.rest);
      return;
    }
    onSaved();
  });

  const probe = useAction(async () => {
    setOffered(null);
    if (provider === 'openai_compatible' && !endpoint.trim()) {
      setErrors({ endpoint_url: intl.formatMessage({ id: 'settings.modelForm.probeNeedsUrl' }) });
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
      if (!modelId.trim() && found.data[0]) pick(found.data[0].id);
    } catch (error) {
      const split = splitFieldErrors(error, intl);
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

  const label = editing ? intl.formatMessage({ id: 'settings.modelForm.labelEdit' }, { name: model.name }) : intl.formatMessage({ id: 'settings.modelForm.labelAdd' });
  const urlHint = intl.formatMessage({ id: hints.urlHint });
  return (
    <form className="model-form" aria-label={label} onSubmit={submit} noValidate>
      {editing ? (
        <h3 className="model-form-title">
          <FormattedMessage id="settings.modelForm.heading" values={{ name: model.name }} />
        </h3>
      ) : null}
      <div className="form-grid">
        {editing ? null : (
          <SelectField
            label={intl.formatMessage({ id: 'settings.modelForm.provider' })}
            value={provider}
            onChange={(e) => {
              setProvider(e.target.value as RemoteProvider);
              setOffered(null);
              setErrors({});
            }}
          >
            <option value="openai_compatible">{intl.formatMessage({ id: 'settings.modelForm.providerOpenai' })}</option>
            <option value="anthropic">{intl.formatMessage({ id: 'settings.modelForm.providerAnthropic' })}</option>
          </SelectField>
        )}
        <TextField
          ref={nameRef}
          label={intl.formatMessage({ id: 'settings.modelForm.name' })}
          placeholder={intl.formatMessage({ id: 'settings.modelForm.namePlaceholder' })}
          maxLength={100}
          value={name}
          error={errors.name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label={intl.formatMessage({ id: 'settings.modelForm.endpointUrl' })}
          type="url"
          placeholder={hints.url}
          value={endpoint}
          error={errors.endpoint_url}
          onChange={(e) => setEndpoint(e.target.value)}
          hint={editing && model.has_api_key ? intl.formatMessage({ id: 'settings.modelForm.urlHintKeyForgotten' }, { hint: urlHint }) : urlHint}
        />
        <TextField
          label={intl.formatMessage({ id: 'settings.modelForm.apiKey' })}
          type="password"
          autoComplete="off"
          value={apiKey}
          error={errors.api_key}
          placeholder={editing && model.has_api_key && !forgetKey ? intl.formatMessage({ id: 'settings.modelForm.apiKeyStored' }) : undefined}
          onChange={(e) => setApiKey(e.target.value)}
          hint={intl.formatMessage({ id: provider === 'anthropic' ? 'settings.modelForm.apiKeyHintAnthropic' : 'settings.modelForm.apiKeyHint' })}
        />
        <div className="model-id-field">
          <TextField
            label={intl.formatMessage({ id: 'settings.modelForm.model' })}
            placeholder={intl.formatMessage({ id: hints.model })}
            value={modelId}
            error={errors.model}
            onChange={(e) => setModelId(e.target.value)}
            hint={intl.formatMessage({ id: 'settings.modelForm.modelHint' })}
          />
          <Button className="model-probe" busy={probe.busy} onClick={() => void probe.run()}>
            <FormattedMessage id="settings.modelForm.listModels" />
          </Button>
          {offered !== null && offered.length > 0 ? (
            <SelectField
              label={intl.formatMessage({ id: 'settings.modelForm.offered' })}
              fieldClassName="model-offered"
              value={offered.includes(modelId) ? modelId : ''}
              onChange={(e) => e.target.value && pick(e.target.value)}
              hint={intl.formatMessage({ id: 'settings.modelForm.offeredHint' }, { count: offered.length })}
            >
              <option value="">{intl.formatMessage({ id: 'settings.modelForm.pickModel' })}</option>
              {offered.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </SelectField>
          ) : null}
          {offered !== null && offered.length === 0 ? (
            <p className="field-hint model-offered">
              <FormattedMessage id="settings.modelForm.noneOffered" />
            </p>
          ) : null}
        </div>
      </div>
      <label className="checkbox-row">
        <input type="checkbox" checked={vision} onChange={(e) => setVision(e.target.checked)} aria-describedby={visionHintId} />
        <FormattedMessage id="settings.modelForm.vision" />
      </label>
      <p id={visionHintId} className="field-hint model-form-vision-hint">
        <FormattedMessage id="settings.modelForm.visionHint" />
      </p>
      {!editing && offered !== null ? (
        <AddOfferedModels
          offered={offered}
          provider={provider}
          endpoint={endpoint}
          apiKey={apiKey}
          namePrefix={name === autoName ? '' : name}
          vision={vision}
          onAdded={() => onAdded?.()}
          onDone={onSaved}
        />
      ) : null}
      {editing && model.has_api_key ? (
        <label className="checkbox-row">
          <input type="checkbox" checked={forgetKey} onChange={(e) => setForgetKey(e.target.checked)} disabled={apiKey.length > 0} />
          <FormattedMessage id="settings.modelForm.forgetKey" />
        </label>
      ) : null}
      <FormError message={probe.error ?? save.error} />
      <div className="model-form-actions">
        <Button onClick={onCancel} disabled={save.busy}>
          <FormattedMessage id="settings.modelForm.cancel" />
        </Button>
        <Button type="submit" variant="primary" icon={editing ? <CheckIcon /> : <PlusIcon />} busy={save.busy}>
          <FormattedMessage id={editing ? 'settings.modelForm.save' : 'settings.modelForm.add'} />
        </Button>
      </div>
    </form>
  );
}
