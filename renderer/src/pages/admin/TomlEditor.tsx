import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { linter, lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Text } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { useIntl, type IntlShape } from 'react-intl';

/** A problem of the text, where it is written (1-based, as the service reports it). */
export interface TextProblem {
  line?: number | undefined;
  column?: number | undefined;
  path: string;
  message: string;
}

export interface TomlEditorHandle {
  /** Moves the cursor to a line and column (1-based) and focuses the editor. */
  goTo(line: number, column?: number): void;
}

export interface TomlEditorProps {
  ref?: Ref<TomlEditorHandle>;
  value: string;
  onChange: (value: string) => void;
  /** Problems the service reported for the text last saved; marked until the text changes. */
  problems: TextProblem[];
  /** Checks the text as it is typed (a pause after the last key), marking what it finds. */
  validate?: (text: string) => TextProblem[];
  readOnly?: boolean;
  /** The accessible name of the text box. */
  label: string;
  describedBy?: string | undefined;
}

function offsetOf(doc: Text, line = 1, column = 1): number {
  const at = doc.line(Math.min(Math.max(line, 1), doc.lines));
  return Math.min(at.from + Math.max(column, 1) - 1, at.to);
}

function diagnosticsOf(doc: Text, problems: TextProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const from = offsetOf(doc, problem.line, problem.column);
    const to = Math.max(from, doc.lineAt(from).to);
    return { from, to, severity: 'error', message: problem.path ? `${problem.path}: ${problem.message}` : problem.message };
  });
}

/** CodeMirror's own words (announced to screen readers, or in the lint panel) in the interface's language. */
function phrasesOf(intl: IntlShape): Record<string, string> {
  return {
    'Selection deleted': intl.formatMessage({ id: 'admin.tomlEditor.phrase.selectionDeleted' }),
    'Control character': intl.formatMessage({ id: 'admin.tomlEditor.phrase.controlCharacter' }),
    Diagnostics: intl.formatMessage({ id: 'admin.tomlEditor.phrase.diagnostics' }),
    'No diagnostics': intl.formatMessage({ id: 'admin.tomlEditor.phrase.noDiagnostics' }),
    close: intl.formatMessage({ id: 'admin.tomlEditor.phrase.close' }),
  };
}

/**
 * A TOML editor on CodeMirror 6: line numbers, undo, highlighting by class (coloured from the
 * theme's tokens in CSS) and the service's validation errors marked on their lines. Tab is left to
 * move focus, so the editor never traps a keyboard user.
 */
export function TomlEditor({ ref, value, onChange, problems, validate, readOnly = false, label, describedBy }: TomlEditorProps) {
  const intl = useIntl();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const validateRef = useRef(validate);
  useEffect(() => {
    onChangeRef.current = onChange;
    validateRef.current = validate;
  });

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current ?? undefined,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          StreamLanguage.define(toml),
          syntaxHighlighting(classHighlighter),
          lintGutter(),
          linter((v) => diagnosticsOf(v.state.doc, validateRef.current?.(v.state.doc.toString()) ?? []), { delay: 400 }),
          EditorView.lineWrapping,
          EditorState.phrases.of(phrasesOf(intl)),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            role: 'textbox',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            ...(readOnly ? { 'aria-readonly': 'true' } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Made once per mode and language; the value and problems are pushed into it by the effects below.
  }, [readOnly, label, describedBy, intl]);

  // A value set from outside (loaded, discarded, rolled back) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, diagnosticsOf(editor.state.doc, problems)));
  }, [problems]);

  useImperativeHandle(ref, () => ({
    goTo(line, column) {
      const editor = view.current;
      if (!editor) return;
      const anchor = offsetOf(editor.state.doc, line, column);
      editor.dispatch({ selection: { anchor }, scrollIntoView: true });
      editor.focus();
    },
  }));

  return <div className="toml-editor" ref={host} />;
}
