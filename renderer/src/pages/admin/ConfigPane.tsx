import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { parseConfig } from '../../../../shared/config-parse.js';
import { ServiceError } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { Time } from '../../ui/Time.js';
import { errorText } from '../../ui/error-text.js';
import { useLoader } from '../../ui/useLoader.js';
import { ConfigHistory } from './ConfigHistory.js';
import { SOURCE_LABELS, type ConfigState } from './config-state.js';
import type { TextProblem, TomlEditorHandle } from './TomlEditor.js';
import { useBusy } from '../../ui/useBusy.js';

// CodeMirror is only needed here: it loads with the pane, not with the app.
const TomlEditor = lazy(() => import('./TomlEditor.js').then((m) => ({ default: m.TomlEditor })));

type Outcome =
  | { kind: 'saved'; state: ConfigState }
  | { kind: 'invalid'; problems: TextProblem[] }
  | { kind: 'stale'; detail: string }
  | { kind: 'failed'; detail: string };

function outcomeOf(error: unknown): Outcome {
  if (error instanceof ServiceError && error.code === 'unprocessable' && error.errors?.length) return { kind: 'invalid', problems: error.errors };
  if (error instanceof ServiceError && error.code === 'conflict') return { kind: 'stale', detail: error.message };
  return { kind: 'failed', detail: errorText(error) };
}

/** The service's own check, run in the page as the text is typed. */
function validate(text: string): TextProblem[] {
  const parsed = parseConfig(text);
  return parsed.ok ? [] : parsed.errors;
}

function where(problem: TextProblem): string {
  if (!problem.line) return problem.path || 'The file';
  return `Line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}`;
}

/** Super admins edit `parley.toml` here: validated by the service, versioned, applied at once. */
export function ConfigPane() {
  const loader = useLoader(() => client.call('admin.config.get', {}));
  return (
    <Loadable state={loader.state} reload={loader.reload} loading="Loading the configuration…" failed="The configuration could not be loaded">
      {(state) => <ConfigEditorSection initial={state} />}
    </Loadable>
  );
}

function ConfigEditorSection({ initial }: { initial: ConfigState }) {
  const [current, setCurrent] = useState(initial);
  const [draft, setDraft] = useState(initial.toml);
  const { busy, during } = useBusy();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);
  const editor = useRef<TomlEditorHandle>(null);
  const problemsId = useId();
  const dirty = draft !== current.toml;
  const problems = outcome?.kind === 'invalid' ? outcome.problems : [];

  // Unsaved edits are not lost to a closed tab or window without a question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  function applied(state: ConfigState) {
    setCurrent(state);
    setDraft(state.toml);
    setOutcome({ kind: 'saved', state });
    setHistoryVersion((v) => v + 1);
  }

  async function save() {
    if (!dirty || busy) return;
    try {
      applied(await during(() => client.call('admin.config.put', { toml: draft, base_version: current.version })));
    } catch (error) {
      setOutcome(outcomeOf(error));
    }
  }

  async function loadNewest() {
    try {
      const state = await during(() => client.call('admin.config.get', {}));
      setCurrent(state);
      setDraft(state.toml);
      setOutcome(null);
      setHistoryVersion((v) => v + 1);
    } catch (error) {
      setOutcome({ kind: 'failed', detail: errorText(error) });
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  }

  return (
    <>
      <Section
        title="Configuration"
        description={
          <>
            <code>parley.toml</code> in Parley’s data folder. Saving checks it, keeps the previous version and applies it at once.
          </>
        }
      >
        {current.file_problems.length > 0 ? (
          <Alert tone="warning" title="parley.toml on disk cannot be used">
            <p>It was edited by hand and has problems, so version {current.version} stays in force. Saving here replaces the file.</p>
            <ProblemList problems={current.file_problems} />
          </Alert>
        ) : null}
        {current.server_problem ? (
          <Alert tone="warning" title="The local HTTP server is not listening">
            {current.server_problem}
          </Alert>
        ) : null}
        {/* The bar stays in view while the text scrolls by, so Save is never a long scroll away. */}
        <div className="config-toolbar">
          <p className="config-meta">
            Version {current.version} · {SOURCE_LABELS[current.source]}
            {current.updated_by ? ` by ${current.updated_by.name}` : ''} · <Time iso={current.updated_at} />
            {dirty ? <span className="badge badge-warning">Unsaved changes</span> : null}
          </p>
          <div className="config-actions">
            <Button
              onClick={() => {
                setDraft(current.toml);
                setOutcome(null);
              }}
              disabled={!dirty || busy}
            >
              Discard changes
            </Button>
            <Button variant="primary" onClick={() => void save()} busy={busy} disabled={!dirty} aria-keyshortcuts="Control+S Meta+S" title="Ctrl+S">
              Save configuration
            </Button>
          </div>
        </div>
        <OutcomeMessage outcome={outcome} problemsId={problemsId} goTo={(p) => editor.current?.goTo(p.line ?? 1, p.column)} loadNewest={() => void loadNewest()} />
        <div className="config-editor" onKeyDown={onKeyDown}>
          <Suspense fallback={<pre className="code-block config-fallback">{draft}</pre>}>
            <TomlEditor
              ref={editor}
              value={draft}
              onChange={setDraft}
              problems={problems}
              validate={validate}
              label="parley.toml"
              describedBy={problems.length ? problemsId : undefined}
            />
          </Suspense>
        </div>
      </Section>
      <ConfigHistory
        key={historyVersion}
        current={current.version}
        dirty={dirty}
        onRestored={(state) => applied(state)}
      />
    </>
  );
}

function ProblemList({ problems, goTo }: { problems: TextProblem[]; goTo?: (problem: TextProblem) => void }) {
  return (
    <ul className="problem-list">
      {problems.map((problem, i) => (
        <li key={`${problem.line ?? 0}:${problem.column ?? 0}:${i}`}>
          {goTo && problem.line ? (
            <button type="button" className="link-button" onClick={() => goTo(problem)}>
              {where(problem)}
            </button>
          ) : (
            <strong>{where(problem)}</strong>
          )}
          : {problem.path ? <code>{problem.path}</code> : null} {problem.message}
        </li>
      ))}
    </ul>
  );
}

function OutcomeMessage({
  outcome,
  problemsId,
  goTo,
  loadNewest,
}: {
  outcome: Outcome | null;
  problemsId: string;
  goTo: (problem: TextProblem) => void;
  loadNewest: () => void;
}) {
  if (!outcome) return null;
  switch (outcome.kind) {
    case 'saved':
      return outcome.state.restart_required.length ? (
        <Alert tone="warning" title={`Saved as version ${outcome.state.version}`}>
          Restart Parley to apply {outcome.state.restart_required.map((key) => `[${key.replace('.', '] ')}`).join(', ')}; everything else is in force
          now.
        </Alert>
      ) : (
        <Alert tone="success" title={`Saved as version ${outcome.state.version}`}>
          It is in force now.
        </Alert>
      );
    case 'invalid':
      return (
        <div id={problemsId}>
          <Alert tone="error" title={outcome.problems.length === 1 ? 'Not saved: one problem' : `Not saved: ${outcome.problems.length} problems`}>
            <ProblemList problems={outcome.problems} goTo={goTo} />
          </Alert>
        </div>
      );
    case 'stale':
      return (
        <Alert
          tone="error"
          title="Not saved: someone saved a newer version meanwhile"
          action={
            <Button size="sm" onClick={loadNewest}>
              Load the newest version
            </Button>
          }
        >
          Your text is still here. Copy what you changed before loading the newest version, which replaces it.
        </Alert>
      );
    case 'failed':
      return <Alert tone="error" title="Not saved">{outcome.detail}</Alert>;
  }
}
