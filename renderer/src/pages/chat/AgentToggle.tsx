import { FormattedMessage, useIntl } from 'react-intl';

export interface AgentToggleProps {
  value: boolean;
  onChange: (value: boolean) => void;
  disabled: boolean;
}

/**
 * Agent mode for the next message (`agentic: true`): an agent plans, searches and reads the
 * attached datasets before answering, and the answer shows its steps. A native checkbox with the
 * switch role, so Space toggles it and screen readers say on or off.
 */
export function AgentToggle({ value, onChange, disabled }: AgentToggleProps) {
  const intl = useIntl();
  return (
    <label className="picker agent-toggle" title={intl.formatMessage({ id: 'chat.agent.title' })}>
      <input type="checkbox" role="switch" className="switch" checked={value} disabled={disabled} onChange={(event) => onChange(event.target.checked)} aria-describedby="agent-toggle-hint" />
      <span className="picker-label">
        <FormattedMessage id="chat.agent.label" />
      </span>
      <span id="agent-toggle-hint" className="visually-hidden">
        <FormattedMessage id="chat.agent.description" />
      </span>
    </label>
  );
}
