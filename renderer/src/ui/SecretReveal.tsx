import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from './Button.js';
import { CheckIcon, CopyIcon, KeyIcon } from './icons.js';

export interface SecretRevealProps {
  title: string;
  secret: string;
  /** What the secret is for, e.g. whose key it is. */
  children?: ReactNode;
  onDone: () => void;
}

/** Copies through the Clipboard API, or by selecting the field where that API is refused. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand('copy');
  }
}

/**
 * A secret the service shows once (a new API key): in full, with a copy button and a plain warning
 * that it will not be shown again. It takes focus when it appears so the warning is not missed.
 */
export function SecretReveal({ title, secret, children, onDone }: SecretRevealProps) {
  const intl = useIntl();
  const titleId = useId();
  const warningId = useId();
  const field = useRef<HTMLInputElement>(null);
  const region = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');

  useEffect(() => {
    region.current?.focus();
  }, [secret]);

  useEffect(() => {
    if (copied !== 'yes') return;
    const timer = window.setTimeout(() => setCopied('no'), 2500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  return (
    <div className="secret" role="region" aria-labelledby={titleId} tabIndex={-1} ref={region}>
      <div className="secret-header">
        <span className="secret-icon">
          <KeyIcon size={16} />
        </span>
        <h3 id={titleId}>{title}</h3>
      </div>
      {children ? <div className="secret-context">{children}</div> : null}
      <p className="secret-warning" id={warningId}>
        <FormattedMessage id="ui.secret.warning" values={{ strong: (chunks: ReactNode[]) => <strong>{chunks}</strong> }} />
      </p>
      <div className="secret-row">
        <input
          ref={field}
          className="input secret-value"
          readOnly
          value={secret}
          aria-label={intl.formatMessage({ id: 'ui.secret.fullKey' }, { title })}
          aria-describedby={warningId}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          variant="primary"
          icon={copied === 'yes' ? <CheckIcon /> : <CopyIcon />}
          onClick={() => void copyText(secret, field.current).then((ok) => setCopied(ok ? 'yes' : 'failed'))}
        >
          <FormattedMessage id={copied === 'yes' ? 'ui.secret.copied' : 'ui.secret.copy'} />
        </Button>
      </div>
      <p className="secret-status" role="status">
        {copied === 'yes' ? intl.formatMessage({ id: 'ui.secret.onClipboard' }) : copied === 'failed' ? intl.formatMessage({ id: 'ui.secret.blocked' }) : null}
      </p>
      <div className="secret-footer">
        <Button onClick={onDone}>
          <FormattedMessage id="ui.secret.done" />
        </Button>
      </div>
    </div>
  );
}
