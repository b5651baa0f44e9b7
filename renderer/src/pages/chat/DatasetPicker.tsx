import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { usePopover } from '../../ui/usePopover.js';

export interface DatasetPickerProps {
  datasets: Array<{ id: string; name: string }>;
  value: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
  /** What the choice is for, as screen readers hear it. */
  legend?: string;
  /** The popover closes whenever this changes (a message sent). */
  closeWhen?: unknown;
}

/** The datasets the thread's answers draw on; a popover of checkboxes on a native `<details>` that closes on Esc and outside clicks. */
export function DatasetPicker({ datasets, value, onChange, disabled, legend, closeWhen }: DatasetPickerProps) {
  const intl = useIntl();
  const id = useId();
  // Closes on Esc, a click or focus outside, and when a message is sent.
  const popover = usePopover(closeWhen);
  const count = intl.formatMessage({ id: 'chat.datasetPicker.count' }, { count: value.length });
  const label = value.length === 0 ? intl.formatMessage({ id: 'chat.datasetPicker.none' }) : value.length === 1 ? (datasets.find((d) => d.id === value[0])?.name ?? count) : count;
  return (
    <details className="picker dataset-picker" ref={popover}>
      <summary className={`input select select-sm${disabled ? ' is-disabled' : ''}`} aria-disabled={disabled || undefined}>
        <span className="picker-label">
          <FormattedMessage id="chat.datasetPicker.label" />
        </span> {label}
      </summary>
      <fieldset className="dataset-picker-menu" disabled={disabled}>
        <legend className="visually-hidden">{legend ?? intl.formatMessage({ id: 'chat.datasetPicker.legend' })}</legend>
        {datasets.length === 0 ? (
          <p className="muted">
            <FormattedMessage id="chat.datasetPicker.empty" />
          </p>
        ) : null}
        {datasets.map((d) => (
          <label key={d.id} className="checkbox-row" htmlFor={`${id}-${d.id}`}>
            <input
              id={`${id}-${d.id}`}
              type="checkbox"
              checked={value.includes(d.id)}
              onChange={(event) => onChange(event.target.checked ? [...value, d.id] : value.filter((v) => v !== d.id))}
            />
            {d.name}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
