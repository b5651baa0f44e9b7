import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { formatBytes } from '../../../../shared/bytes.js';
import { Button } from '../../ui/Button.js';
import { CloseIcon, PaperclipIcon } from '../../ui/icons.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { chatImageUrl } from './chat-images.js';
import { attachmentStatus, type Attachment, type Attachments } from './useAttachments.js';

/**
 * The paperclip: picks files for the next message (documents into the chat's own files, images for
 * the model). `accept` filters the picker by what the service reads, once known.
 */
export function AttachButton({ attachments, disabled, accept }: { attachments: Attachments; disabled: boolean; accept: string | undefined }) {
  const intl = useIntl();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="attach-button"
        icon={<PaperclipIcon />}
        aria-label={intl.formatMessage({ id: 'chat.attach.button' })}
        title={intl.formatMessage({ id: 'chat.attach.tooltip' })}
        disabled={disabled}
        onClick={() => input.current?.click()}
      />
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={accept}
        aria-label={intl.formatMessage({ id: 'chat.attach.inputLabel' })}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) attachments.add(files);
        }}
      />
    </>
  );
}

/**
 * Whether files are being dragged over the window, and the drop: files dropped anywhere on the chat
 * page are attached (rather than opened by the browser in place of the app), unless `enabled` is off.
 */
export function useFileDrop(onFiles: (files: File[]) => void, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  const latest = useRef({ onFiles, enabled });
  latest.current = { onFiles, enabled };
  useEffect(() => {
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = latest.current.enabled ? 'copy' : 'none';
      setDragging(latest.current.enabled);
    };
    // Leaving the window (no element entered next) ends the drag's highlight.
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (latest.current.enabled && files.length > 0) latest.current.onFiles(files);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return dragging;
}

/** What is attached to the next message, one chip per file: its name, size and state, and × to take it back. */
export function AttachmentChips({ attachments, disabled }: { attachments: Attachments; disabled: boolean }) {
  const intl = useIntl();
  if (attachments.items.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label={intl.formatMessage({ id: 'chat.attach.list' })}>
      {attachments.items.map((a) => (
        <AttachmentChip key={a.id} attachment={a} disabled={disabled} onRemove={() => attachments.remove(a.id)} />
      ))}
    </ul>
  );
}

function AttachmentChip({ attachment: a, disabled, onRemove }: { attachment: Attachment; disabled: boolean; onRemove: () => void }) {
  const intl = useIntl();
  const status = attachmentStatus(intl, a);
  return (
    <li className={`attachment-chip attachment-${a.state}`} data-state={a.state}>
      {a.image ? <img className="attachment-thumb" src={chatImageUrl(a.image)} alt="" /> : null}
      <span className="attachment-text">
        <span className="attachment-name" title={a.name}>
          {a.name}
        </span>
        <span className="attachment-meta">
          <span className="attachment-size">{formatBytes(a.size, intl.locale)}</span>
          <span className="attachment-status" role={a.state === 'failed' ? 'alert' : undefined}>
            {status}
          </span>
        </span>
        {a.state === 'sending' || (a.state === 'reading' && a.progress > 0) ? (
          <ProgressBar value={a.progress} label={intl.formatMessage({ id: 'chat.attach.progressLabel' }, { name: a.name })} />
        ) : null}
      </span>
      <button type="button" className="attachment-remove" aria-label={intl.formatMessage({ id: 'chat.attach.remove' }, { name: a.name })} title={intl.formatMessage({ id: 'chat.attach.remove' }, { name: a.name })} disabled={disabled} onClick={onRemove}>
        <CloseIcon size={14} />
      </button>
    </li>
  );
}
