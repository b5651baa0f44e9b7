import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CheckIcon, CopyIcon } from './icons.js';

/** Copies through the Clipboard API, or through a hidden selection where that API is refused. */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** A small Copy button that says "Copied" for a moment; `label` names what it copies for screen readers. */
export function CopyButton({ text, label, className = 'msg-action' }: { text: () => string; label: string; className?: string }) {
  const intl = useIntl();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <button type="button" className={className} aria-label={state === 'copied' ? intl.formatMessage({ id: 'ui.copy.copied' }) : label} title={label} onClick={() => void copyToClipboard(text()).then((ok) => setState(ok ? 'copied' : 'failed'))}>
      {state === 'copied' ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
      <span aria-hidden="true">
        <FormattedMessage id={state === 'copied' ? 'ui.copy.copied' : state === 'failed' ? 'ui.copy.failed' : 'ui.copy.copy'} />
      </span>
    </button>
  );
}
