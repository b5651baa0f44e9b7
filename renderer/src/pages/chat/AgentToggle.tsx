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
  return (
    <label className="picker agent-toggle" title="An agent searches and reads your datasets before it answers, and shows its steps">
      <input type="checkbox" role="switch" className="switch" checked={value} disabled={disabled} onChange={(event) => onChange(event.target.checked)} aria-describedby="agent-toggle-hint" />
      <span className="picker-label">Agent</span>
      <span id="agent-toggle-hint" className="visually-hidden">
        An agent searches and reads your datasets before it answers, and shows its steps.
      </span>
    </label>
  );
}
