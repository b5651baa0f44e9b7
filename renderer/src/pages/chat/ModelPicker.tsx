import { FormattedMessage, useIntl } from 'react-intl';
import type { Model, ModelOverride } from './types.js';
import type { WorkflowOption } from './WorkflowPicker.js';

export interface ModelPickerProps {
  models: Model[];
  overrides: ModelOverride[];
  /** A model (mdl_…) or workspace override (ovr_…) id; null for dynamic routing. */
  value: string | null;
  onChange: (value: string | null) => void;
  disabled: boolean;
  /** The workflow the next message goes with: with no model picked after it, its own model answers. */
  workflow?: (WorkflowOption & { model_endpoint_override: string | null }) | null;
}

/** Which model answers the next message: the router's choice by default. */
export function ModelPicker({ models, overrides, value, onChange, disabled, workflow = null }: ModelPickerProps) {
  const intl = useIntl();
  const nameOf = (id: string) => models.find((m) => m.id === id)?.name ?? id;
  const targetName = (id: string) => {
    const override = overrides.find((o) => o.id === id);
    return override ? intl.formatMessage({ id: 'chat.modelPicker.via' }, { model: nameOf(override.model_id), host: new URL(override.endpoint_url).host }) : nameOf(id);
  };
  // Said in the picker itself: which model answers while no model is picked after the workflow.
  const unset = !workflow
    ? intl.formatMessage({ id: 'chat.modelPicker.auto' })
    : workflow.model_endpoint_override
      ? intl.formatMessage({ id: 'chat.modelPicker.fromWorkflow' }, { workflow: workflow.name, model: targetName(workflow.model_endpoint_override) })
      : intl.formatMessage({ id: 'chat.modelPicker.fromWorkflowAuto' }, { workflow: workflow.name });
  return (
    <label className="picker">
      <span className="picker-label">
        <FormattedMessage id="chat.modelPicker.label" />
      </span>
      <select className="input select select-sm" value={value ?? ''} disabled={disabled} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{unset}</option>
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
                {targetName(o.id)}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </label>
  );
}
