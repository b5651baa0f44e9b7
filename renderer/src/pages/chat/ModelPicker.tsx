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
  const nameOf = (id: string) => models.find((m) => m.id === id)?.name ?? id;
  return (
    <label className="picker">
      <span className="picker-label">Model</span>
      <select className="input select select-sm" value={value ?? ''} disabled={disabled} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">Auto (dynamic routing)</option>
        <optgroup label="Models">
          {models.map((m) => (
            <option key={m.id} value={m.id} disabled={m.status === 'unavailable'}>
              {m.name}
              {m.status === 'unavailable' ? ' (unavailable)' : ''}
            </option>
          ))}
        </optgroup>
        {overrides.length > 0 ? (
          <optgroup label="Workspace endpoints">
            {overrides.map((o) => (
              <option key={o.id} value={o.id}>
                {nameOf(o.model_id)} via {new URL(o.endpoint_url).host}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </label>
  );
}
