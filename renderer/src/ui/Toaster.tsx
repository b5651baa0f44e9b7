import { useEffect, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AlertIcon, CheckIcon, CloseIcon } from './icons.js';
import { useToasts, visibleToasts, type Toast } from './toast.js';
/** Successes and notes go by themselves; errors stay until dismissed. */
const AUTO_DISMISS_MS = 5000;

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((s) => s.dismiss);
  const intl = useIntl();
  const onDismiss = () => dismiss(toast.id);
  useEffect(() => {
    if (toast.tone === 'error') return;
    const timer = window.setTimeout(() => dismiss(toast.id), AUTO_DISMISS_MS);
    return () => window.clearTimeout(timer);
  }, [toast.tone, toast.id, dismiss]);

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key !== 'Escape') return;
    // Not also "stop the answer" (the composer listens for Esc on the window).
    event.stopPropagation();
    onDismiss();
  };

  return (
    <li className={`toast toast-${toast.tone}`} onKeyDown={onKeyDown}>
      {toast.tone === 'success' ? <CheckIcon className="toast-icon" /> : <AlertIcon className="toast-icon" />}
      {/* Errors interrupt (role=alert); the rest are read politely by the list's live region. */}
      <div className="toast-body" role={toast.tone === 'error' ? 'alert' : undefined}>
        <p className="toast-title">
          {toast.title}
          {toast.count > 1 ? (
            <span className="toast-count">
              <span aria-hidden="true">
                <FormattedMessage id="ui.toast.count" values={{ count: toast.count }} />
              </span>
              <span className="visually-hidden">
                <FormattedMessage id="ui.toast.countSpoken" values={{ count: toast.count }} />
              </span>
            </span>
          ) : null}
        </p>
        {toast.detail ? <p className="toast-detail">{toast.detail}</p> : null}
        {toast.link ? (
          <a className="toast-link" href={toast.link.href} onClick={onDismiss}>
            {toast.link.label}
          </a>
        ) : null}
      </div>
      <button type="button" className="toast-close" aria-label={intl.formatMessage({ id: 'ui.toast.dismiss' }, { title: toast.title })} onClick={onDismiss}>
        <CloseIcon size={14} />
      </button>
    </li>
  );
}

/** Where toasts appear: bottom right, newest at the bottom. Mounted once, in the shell. */
export function Toaster() {
  const intl = useIntl();
  const toasts = useToasts((s) => s.toasts);
  const shown = visibleToasts(toasts);
  return (
    <section className="toaster" aria-label={intl.formatMessage({ id: 'ui.toast.region' })}>
      <ol className="toast-list" aria-live="polite">
        {shown.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </section>
  );
}
