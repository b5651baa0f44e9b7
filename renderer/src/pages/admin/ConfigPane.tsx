import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
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

/** The file's name, the same in every language. */
const CONFIG_FILE = 'parley.toml';

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

// Line and column numbers are positions, not quantities: written plainly, never grouped (String()).
function where(problem: TextProblem, intl: IntlShape): string {
  if (!problem.line) return problem.path || intl.formatMessage({ id: 'admin.config.problem.file' });
  return problem.column
    ? intl.formatMessage({ id: 'admin.config.problem.lineColumn' }, { line: String(problem.line), column: String(problem.column) })
    : intl.formatMessage({ id: 'admin.config.problem.line' }, { line: String(problem.line) });
}

/** Super admins edit `parley.toml` here: validated by the service, versioned, applied at once. */
export function ConfigPane() {
  const intl = useIntl();
  const loader = useLoader(() => client.call('admin.config.get', {}));
  return (
    <Loadable
      state={loader.state}
      reload={loader.reload}
      loading={intl.formatMessage({ id: 'admin.config.loading' })}
      failed={intl.formatMessage({ id: 'admin.config.loadFailed' })}
    >
      {(state) => <ConfigEditorSection initial={state} />}
    </Loadable>
  );
}

function ConfigEditorSection({ initial }: { initial: ConfigState }) {
  const intl = useIntl();
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
        title={intl.formatMessage({ id: 'admin.config.title' })}
        description={<FormattedMessage id="admin.config.description" values={{ file: <code>{CONFIG_FILE}</code> }} />}
      >
        {current.file_problems.length > 0 ? (
          <Alert tone="warning" title={intl.formatMessage({ id: 'admin.config.fileProblems.title' })}>
            <p>
              <FormattedMessage id="admin.config.fileProblems.body" values={{ version: String(current.version) }} />
            </p>
            <ProblemList problems={current.file_problems} />
          </Alert>
        ) : null}
        {current.server_problem ? (
          <Alert tone="warning" title={intl.formatMessage({ id: 'admin.config.serverProblem.title' })}>
            {current.server_problem}
          </Alert>
        ) : null}
        {/* The bar stays in view while the text scrolls by, so Save is never a long scroll away. */}
        <div className="config-toolbar">
          <p className="config-meta">
            <FormattedMessage
              id={current.updated_by ? 'admin.config.metaBy' : 'admin.config.meta'}
              values={{
                version: String(current.version),
                source: intl.formatMessage({ id: SOURCE_LABELS[current.source] }),
                name: current.updated_by?.name,
                time: <Time iso={current.updated_at} />,
              }}
            />
            {dirty ? (
              <span className="badge badge-warning">
                <FormattedMessage id="admin.config.unsaved" />
              </span>
            ) : null}
          </p>
          <div className="config-actions">
            <Button
              onClick={() => {
                setDraft(current.toml);
                setOutcome(null);
              }}
              disabled={!dirty || busy}
            >
              <FormattedMessage id="admin.config.discard" />
            </Button>
            <Button
              variant="primary"
              onClick={() => void save()}
              busy={busy}
              disabled={!dirty}
              aria-keyshortcuts="Control+S Meta+S"
              title={intl.formatMessage({ id: 'admin.config.saveShortcut' })}
            >
              <FormattedMessage id="admin.config.save" />
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
              label={CONFIG_FILE}
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
  const intl = useIntl();
  return (
    <ul className="problem-list">
      {problems.map((problem, i) => (
        <li key={`${problem.line ?? 0}:${problem.column ?? 0}:${i}`}>
          <FormattedMessage
            id="admin.config.problem.item"
            values={{
              where:
                goTo && problem.line ? (
                  <button type="button" className="link-button" onClick={() => goTo(problem)}>
                    {where(problem, intl)}
                  </button>
                ) : (
                  <strong>{where(problem, intl)}</strong>
                ),
              path: problem.path ? <code>{problem.path}</code> : '',
              message: problem.message,
            }}
          />
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
  const intl = useIntl();
  if (!outcome) return null;
  switch (outcome.kind) {
    case 'saved':
      return outcome.state.restart_required.length ? (
        <Alert tone="warning" title={intl.formatMessage({ id: 'admin.config.saved.title' }, { version: String(outcome.state.version) })}>
          <FormattedMessage
            id="admin.config.saved.restart"
            values={{ keys: outcome.state.restart_required.map((key) => `[${key.replace('.', '] ')}`).join(', ') }}
          />
        </Alert>
      ) : (
        <Alert tone="success" title={intl.formatMessage({ id: 'admin.config.saved.title' }, { version: String(outcome.state.version) })}>
          <FormattedMessage id="admin.config.saved.inForce" />
        </Alert>
      );
    case 'invalid':
      return (
        <div id={problemsId}>
          <Alert tone="error" title={intl.formatMessage({ id: 'admin.config.invalid.title' }, { count: outcome.problems.length })}>
            <ProblemList problems={outcome.problems} goTo={goTo} />
          </Alert>
        </div>
      );
    case 'stale':
      return (
        <Alert
          tone="error"
          title={intl.formatMessage({ id: 'admin.config.stale.title' })}
          action={
            <Button size="sm" onClick={loadNewest}>
              <FormattedMessage id="admin.config.stale.loadNewest" />
            </Button>
          }
        >
          <FormattedMessage id="admin.config.stale.body" />
        </Alert>
      );
    case 'failed':
      return (
        <Alert tone="error" title={intl.formatMessage({ id: 'admin.config.failed.title' })}>
          {outcome.detail}
        </Alert>
      );
  }
}
