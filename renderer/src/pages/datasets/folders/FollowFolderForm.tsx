import { useRef, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { ServiceError } from '../../../../../shared/errors.js';
import type { Folder } from '../../../../../shared/operations/folders.js';
import { client } from '../../../api/index.js';
import { folderPicker } from '../../../api/folder-picker.js';
import { Button } from '../../../ui/Button.js';
import { TextField } from '../../../ui/Field.js';
import { FormError } from '../../../ui/FormError.js';
import { errorText } from '../../../ui/error-text.js';
import { FolderIcon } from '../../../ui/icons.js';
import { useBusy } from '../../../ui/useBusy.js';
import { parseGlobs } from './folder-format.js';

type FieldName = 'path' | 'include' | 'exclude';
type Errors = Partial<Record<FieldName, string>> & { form?: string };

/** A refusal's field errors placed under their fields (`include.0` under Include), the rest for the form. */
function placeErrors(error: unknown): Errors {
  if (!(error instanceof ServiceError) || !error.errors?.length) return { form: errorText(error) };
  const placed: Errors = {};
  const rest: string[] = [];
  for (const e of error.errors) {
    const field = (['path', 'include', 'exclude'] as const).find((f) => e.path === f || e.path.startsWith(`${f}.`) || e.path.startsWith(`${f}[`));
    if (field && !placed[field]) placed[field] = e.message;
    else if (!field) rest.push(e.message);
  }
  // A 422 for the path says the cause in its detail ("not a directory"); the field keeps it whole.
  if (placed.path && error.message && !placed.path.includes(error.message)) placed.path = error.message;
  if (rest.length > 0) placed.form = rest.join(' ');
  return placed;
}

const pickFolder = folderPicker();

/**
 * Where this server lets a folder be followed, so an admin typing a path is not refused blind: the
 * roots set in the TOML (a click starts the path with one), or a line saying any readable folder will do.
 */
function AllowedRoots({ roots, onPick }: { roots: string[] | null; onPick: (root: string) => void }) {
  const intl = useIntl();
  if (roots === null) return null;
  if (roots.length === 0) {
    return <p className="folder-roots">{intl.formatMessage({ id: 'datasets.folders.form.anyRoot' })}</p>;
  }
  return (
    <div className="folder-roots">
      <p>{intl.formatMessage({ id: 'datasets.folders.form.rootsIntro' })}</p>
      {/* Named without "folder": the form's fields are found by their labels. */}
      <ul aria-label={intl.formatMessage({ id: 'datasets.folders.form.rootsLabel' })}>
        {roots.map((root) => (
          <li key={root}>
            <button type="button" className="folder-root" title={intl.formatMessage({ id: 'datasets.folders.form.rootTitle' }, { root })} onClick={() => onPick(root)}>
              <code>{root}</code>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Follows a folder: the system dialog on the desktop, an absolute path typed in the browser (the
 * folder is on the computer running Parley, which the page cannot browse). Which files join is
 * optional, behind "Advanced".
 */
export function FollowFolderForm({
  datasetId,
  allowedRoots,
  onFollowed,
  onCancel,
}: {
  datasetId: string;
  /** `[folders] allowed_roots` as the service told an admin; null when not known. */
  allowedRoots: string[] | null;
  onFollowed: (folder: Folder) => void;
  onCancel: () => void;
}) {
  const [path, setPath] = useState('');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const { busy, during } = useBusy();
  const pathInput = useRef<HTMLInputElement>(null);
  const intl = useIntl();

  async function choose() {
    if (!pickFolder) return;
    try {
      const chosen = await pickFolder(intl.formatMessage({ id: 'datasets.folders.form.pickerTitle' }));
      if (chosen) {
        setPath(chosen);
        setErrors({});
      }
    } catch (error) {
      setErrors({ form: errorText(error) });
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const chosen = path.trim();
    if (!chosen) {
      setErrors({ path: intl.formatMessage({ id: pickFolder ? 'datasets.folders.form.chooseFirst' : 'datasets.folders.form.typePath' }) });
      pathInput.current?.focus();
      return;
    }
    setErrors({});
    const globs = { include: parseGlobs(include), exclude: parseGlobs(exclude) };
    try {
      const folder = await during(() =>
        client.call('folders.create', {
          id: datasetId,
          path: chosen,
          ...(globs.include.length > 0 ? { include: globs.include } : {}),
          ...(globs.exclude.length > 0 ? { exclude: globs.exclude } : {}),
        }),
      );
      onFollowed(folder);
    } catch (error) {
      const placed = placeErrors(error);
      setErrors(placed);
      if (placed.path) pathInput.current?.focus();
    }
  }

  return (
    <form className="folder-follow" onSubmit={(e) => void submit(e)} noValidate aria-label={intl.formatMessage({ id: 'datasets.folders.follow' })}>
      <div className="folder-follow-path">
        <TextField
          ref={pathInput}
          label={intl.formatMessage({ id: 'datasets.folders.form.folder' })}
          placeholder={intl.formatMessage({ id: pickFolder ? 'datasets.folders.form.placeholderPick' : 'datasets.folders.form.placeholderPath' })}
          autoComplete="off"
          spellCheck={false}
          className="input-mono"
          value={path}
          onChange={(e) => {
            setPath(e.target.value);
            // The complaint was about what was there before: it goes with the next keystroke.
            if (errors.path) setErrors(({ path: _old, ...rest }) => rest);
          }}
          error={errors.path}
          hint={intl.formatMessage({ id: pickFolder ? 'datasets.folders.form.hintPick' : 'datasets.folders.form.hintPath' })}
        />
        {pickFolder ? (
          <Button icon={<FolderIcon />} onClick={() => void choose()} disabled={busy}>
            {intl.formatMessage({ id: 'datasets.folders.form.choose' })}
          </Button>
        ) : null}
      </div>
      {pickFolder ? null : (
        <AllowedRoots
          roots={allowedRoots}
          onPick={(root) => {
            setPath(/[\\/]$/.test(root) ? root : `${root}/`);
            pathInput.current?.focus();
          }}
        />
      )}
      <details className="folder-follow-advanced">
        <summary>{intl.formatMessage({ id: 'datasets.folders.form.advanced' })}</summary>
        <div className="folder-follow-globs">
          <TextField
            label={intl.formatMessage({ id: 'datasets.folders.form.include' })}
            placeholder={intl.formatMessage({ id: 'datasets.folders.form.includePlaceholder' })}
            spellCheck={false}
            className="input-mono"
            value={include}
            onChange={(e) => setInclude(e.target.value)}
            error={errors.include}
            hint={intl.formatMessage({ id: 'datasets.folders.form.includeHint' })}
          />
          <TextField
            label={intl.formatMessage({ id: 'datasets.folders.form.exclude' })}
            placeholder={intl.formatMessage({ id: 'datasets.folders.form.excludePlaceholder' })}
            spellCheck={false}
            className="input-mono"
            value={exclude}
            onChange={(e) => setExclude(e.target.value)}
            error={errors.exclude}
            hint={intl.formatMessage({ id: 'datasets.folders.form.excludeHint' })}
          />
        </div>
      </details>
      <FormError message={errors.form ?? null} />
      <div className="folder-follow-actions">
        <Button onClick={onCancel} disabled={busy}>
          {intl.formatMessage({ id: 'datasets.folders.form.cancel' })}
        </Button>
        <Button type="submit" variant="primary" busy={busy}>
          {intl.formatMessage({ id: 'datasets.folders.form.submit' })}
        </Button>
      </div>
    </form>
  );
}
