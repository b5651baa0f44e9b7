import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';

interface FieldShellProps {
  label: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  children: (ids: { inputId: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string | undefined;
}

/** Label, control, hint and error wired together, so the error is read out with the control. */
function FieldShell({ label, hint, error, children, className }: FieldShellProps) {
  const base = useId();
  const inputId = `${base}-input`;
  const hintId = hint ? `${base}-hint` : undefined;
  const errorId = error ? `${base}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      {children({ inputId, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  ref?: Ref<HTMLInputElement>;
  label: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  fieldClassName?: string;
}

export function TextField({ label, hint, error, fieldClassName, className, ref, ...input }: TextFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} className={fieldClassName}>
      {({ inputId, describedBy, invalid }) => (
        <input
          ref={ref}
          id={inputId}
          className={className ? `input ${className}` : 'input'}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...input}
        />
      )}
    </FieldShell>
  );
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  fieldClassName?: string;
}

export function SelectField({ label, hint, error, fieldClassName, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} className={fieldClassName}>
      {({ inputId, describedBy, invalid }) => (
        <select
          id={inputId}
          className={className ? `input select ${className}` : 'input select'}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...select}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}
