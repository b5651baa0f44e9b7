import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { PlusIcon } from '../../ui/icons.js';
import { formatBytes } from './format.js';

/**
 * Files dropped on the zone or picked with the button (the button is the keyboard and screen reader
 * path; dropping is a shortcut for the mouse). Many files at once. `accept` filters the picker by the
 * allowed types, and the size limit is said, once the service has told them (null until then).
 */
export function DropZone({ onFiles, busy, accept, maxFileBytes }: { onFiles: (files: File[]) => void; busy: boolean; accept?: string | undefined; maxFileBytes: number | null }) {
  const intl = useIntl();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  // A file dropped beside the zone would make the browser open it in place of the app.
  useEffect(() => {
    const ignore = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', ignore);
    window.addEventListener('drop', ignore);
    return () => {
      window.removeEventListener('dragover', ignore);
      window.removeEventListener('drop', ignore);
    };
  }, []);

  function drop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  }

  return (
    <div
      className={over ? 'dropzone dropzone-over' : 'dropzone'}
      onDragOver={(event) => {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p className="dropzone-title">{intl.formatMessage({ id: 'datasets.drop.title' })}</p>
      <p className="dropzone-hint" id={hintId}>
        {maxFileBytes === null
          ? intl.formatMessage({ id: 'datasets.drop.hint' })
          : intl.formatMessage({ id: 'datasets.drop.hintWithLimit' }, { size: formatBytes(maxFileBytes, intl.locale) })}
      </p>
      <Button variant="primary" icon={<PlusIcon />} busy={busy} aria-describedby={hintId} onClick={() => input.current?.click()}>
        {intl.formatMessage({ id: 'datasets.drop.choose' })}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={accept}
        hidden
        aria-label={intl.formatMessage({ id: 'datasets.drop.inputLabel' })}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </div>
  );
}
