import { FormattedMessage, useIntl } from 'react-intl';
import type { Model, ModelOverride } from './types.js';

export interface ModelPickerProps {
  models: Model[];
  overrides: ModelOverride[];
  /** A model (mdl_…) or workspace override (ovr_…) id; null for dynamic routing. */
  value: string | null;
  onChange: (value: string | null) => void;
  disabled: boolean;
}

/** Which model answers the next message: the router's choice by default. */
export function ModelPicker({ models, overrides, value, onChange, disabled }: ModelPickerProps) {
  const intl = useIntl();
  const nameOf = (id: string) => models.find((m) => m.id === id)?.name ?? id;
  return (
    <label className="picker">
      <span className="picker-label">
        <FormattedMessage id="chat.modelPicker.label" />
      </span>
      <select className="input select select-sm" value={value ?? ''} disabled={disabled} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{intl.formatMessage({ id: 'chat.modelPicker.auto' })}</option>
        <optgroup label={intl.formatMessage({ id: 'chat.modelPicker.models' })}>
          {models.map((m) => (
            <option key={m.id} value={m.id} disabled={m.status === 'unavailable'}>
              {m.status === 'unavailable' ? intl.formatMessage({ id: 'chat.modelPicker.unavailable' }, { name: m.name }) : m.name}
            </option>
          ))}
        </optgroup>
        {overrides.length > 0 ? (
          <optgroup label={intl.formatMessage({ id: 'chat.modelPicker.workspaceEndpoints' })}>
            {overrides.map((o) => (
              <option key={o.id} value={o.id}>
                {intl.formatMessage({ id: 'chat.modelPicker.via' }, { model: nameOf(o.model_id), host: new URL(o.endpoint_url).host })}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </label>
  );
}
