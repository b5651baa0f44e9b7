import type { ReactNode } from 'react';
import { AlertIcon, CheckIcon } from './icons.js';

export type AlertTone = 'error' | 'warning' | 'success' | 'info';

export interface AlertProps {
  tone: AlertTone;
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
}

/** A message in the flow of the page. Errors are announced at once; the rest politely. */
export function Alert({ tone, title, children, action }: AlertProps) {
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {tone === 'success' ? <CheckIcon className="alert-icon" /> : <AlertIcon className="alert-icon" />}
      <div className="alert-body">
        {title ? <p className="alert-title">{title}</p> : null}
        {children ? <div className="alert-text">{children}</div> : null}
      </div>
      {action ? <div className="alert-action">{action}</div> : null}
    </div>
  );
}
