import { useId } from 'react';
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
export function DatasetPicker({ datasets, value, onChange, disabled, legend = 'Datasets for this thread', closeWhen }: DatasetPickerProps) {
  const id = useId();
  // Closes on Esc, a click or focus outside, and when a message is sent.
  const popover = usePopover(closeWhen);
  const label = value.length === 0 ? 'No datasets' : value.length === 1 ? (datasets.find((d) => d.id === value[0])?.name ?? '1 dataset') : `${value.length} datasets`;
  return (
    <details className="picker dataset-picker" ref={popover}>
      <summary className={`input select select-sm${disabled ? ' is-disabled' : ''}`} aria-disabled={disabled || undefined}>
        <span className="picker-label">Datasets</span> {label}
      </summary>
      <fieldset className="dataset-picker-menu" disabled={disabled}>
        <legend className="visually-hidden">{legend}</legend>
        {datasets.length === 0 ? <p className="muted">No datasets yet. Create one in Datasets.</p> : null}
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
