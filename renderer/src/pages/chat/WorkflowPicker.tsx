import { FormattedMessage, useIntl } from 'react-intl';

export interface WorkflowOption {
  id: string;
  name: string;
  description: string | null;
}

export interface WorkflowPickerProps {
  workflows: WorkflowOption[];
  /** The workflow the next message is sent with; null: none. */
  value: string | null;
  onChange: (id: string | null) => void;
  disabled: boolean;
}

/**
 * The workflows admins prepared (GET /workflows): one sets the system prompt, and the model,
 * datasets and agent mode a chat leaves unset. The thread remembers the one it was sent with.
 */
export function WorkflowPicker({ workflows, value, onChange, disabled }: WorkflowPickerProps) {
  const intl = useIntl();
  if (workflows.length === 0) return null;
  const chosen = workflows.find((w) => w.id === value);
  return (
    <label className="picker" title={chosen?.description ?? undefined}>
      <span className="picker-label">
        <FormattedMessage id="chat.workflowPicker.label" />
      </span>
      <select className="input select select-sm" value={value ?? ''} disabled={disabled} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">{intl.formatMessage({ id: 'chat.workflowPicker.none' })}</option>
        {workflows.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}
