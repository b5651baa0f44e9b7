import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { errorText } from '../../ui/error-text.js';
import { SettingsIcon } from '../../ui/icons.js';

/** A chat's own settings as the thread keeps them; null is the model's default. */
export interface ChatSettingsValue {
  system_prompt: string | null;
  temperature: number | null;
  max_tokens: number | null;
}

const DEFAULTS: ChatSettingsValue = { system_prompt: null, temperature: null, max_tokens: null };
/** Where the temperature slider starts when the model's default is let go of (the usual default). */
const START_TEMPERATURE = 0.7;
const MAX_TOKENS_LIMIT = 1_000_000;

const isCustom = (s: ChatSettingsValue) => s.system_prompt !== null || s.temperature !== null || s.max_tokens !== null;

export interface ChatSettingsProps {
  threadId: string | null;
  /** While an answer is being written the settings stay as they are, like the other actions. */
  disabled: boolean;
  /** A new chat's settings need a thread to keep them: it is made with them, and the chat goes on in it. */
  startThread: (settings: ChatSettingsValue) => Promise<string>;
}

/**
 * The chat's instructions, temperature and maximum answer length, edited in a modal dialog opened
 * from the composer. The button shows a dot when the chat has settings of its own.
 */
export function ChatSettings({ threadId, disabled, startThread }: ChatSettingsProps) {
  const intl = useIntl();
  const [saved, setSaved] = useState<ChatSettingsValue>(DEFAULTS);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  // Focus goes back to the button once the modal dialog is gone (while it is open, the page behind is inert).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current) {
      wasOpen.current = false;
      button.current?.focus();
    }
  }, [open]);

  useEffect(() => {
    setSaved(DEFAULTS);
    if (!threadId) return;
    let cancelled = false;
    client.call('threads.get', { id: threadId }).then(
      (t) => {
        if (!cancelled) setSaved({ system_prompt: t.system_prompt, temperature: t.temperature, max_tokens: t.max_tokens });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [threadId]);

  useEffect(() => {
    if (disabled) setOpen(false);
  }, [disabled]);

  const custom = isCustom(saved);
  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="sm"
        className={custom ? 'chat-settings-button is-custom' : 'chat-settings-button'}
        icon={<SettingsIcon />}
        aria-label={intl.formatMessage({ id: custom ? 'chat.settings.buttonCustom' : 'chat.settings.button' })}
        title={intl.formatMessage({ id: custom ? 'chat.settings.buttonCustom' : 'chat.settings.button' })}
        aria-haspopup="dialog"
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {custom ? <span className="chat-settings-dot" aria-hidden="true" /> : null}
      </Button>
      {/* In a portal: the composer is a form, and a form may not hold another. */}
      {open
        ? createPortal(
            <SettingsDialog
              saved={saved}
              onClose={close}
              onSave={async (next) => {
                if (threadId) await client.call('threads.update', { id: threadId, ...next });
                else if (isCustom(next)) await startThread(next);
                setSaved(next);
                close();
              }}
            />,
            document.body,
          )
        : null}
    </>
  );
}

interface DialogProps {
  saved: ChatSettingsValue;
  onClose: () => void;
  onSave: (settings: ChatSettingsValue) => Promise<void>;
}

/** The form, on a native modal `<dialog>`: focus moves into it and is trapped, Escape closes it. */
function SettingsDialog({ saved, onClose, onSave }: DialogProps) {
  const intl = useIntl();
  const ref = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const [instructions, setInstructions] = useState(saved.system_prompt ?? '');
  const [modelTemperature, setModelTemperature] = useState(saved.temperature === null);
  const [temperature, setTemperature] = useState(saved.temperature ?? START_TEMPERATURE);
  const [maxTokens, setMaxTokens] = useState(saved.max_tokens === null ? '' : String(saved.max_tokens));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const lengthText = maxTokens.trim();
  const length = Number(lengthText);
  const lengthError = lengthText !== '' && (!Number.isInteger(length) || length < 1 || length > MAX_TOKENS_LIMIT) ? intl.formatMessage({ id: 'chat.settings.maxTokensInvalid' }, { max: MAX_TOKENS_LIMIT }) : null;
  const temperatureError = !modelTemperature && !(temperature >= 0 && temperature <= 2) ? intl.formatMessage({ id: 'chat.settings.temperatureInvalid' }) : null;

  const save = async () => {
    if (lengthError || temperatureError) return;
    setBusy(true);
    setError(null);
    try {
      await onSave({
        system_prompt: instructions.trim() === '' ? null : instructions,
        temperature: modelTemperature ? null : temperature,
        max_tokens: lengthText === '' ? null : length,
      });
    } catch (failure) {
      setError(errorText(failure, intl));
      setBusy(false);
    }
  };

  const reset = () => {
    setInstructions('');
    setModelTemperature(true);
    setTemperature(START_TEMPERATURE);
    setMaxTokens('');
  };

  return (
    <dialog
      ref={ref}
      className="dialog chat-settings-dialog"
      aria-labelledby={`${ids}-title`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      {/* Checked here, so the errors are in the app's language rather than the browser's. */}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          // React carries events up through the portal: the composer's form must not send a message.
          event.stopPropagation();
          void save();
        }}
      >
        <h2 id={`${ids}-title`} className="dialog-title">
          <FormattedMessage id="chat.settings.title" />
        </h2>
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-instructions`}>
            <FormattedMessage id="chat.settings.instructions" />
          </label>
          <textarea
            id={`${ids}-instructions`}
            className="input chat-settings-instructions"
            rows={5}
            maxLength={20_000}
            value={instructions}
            placeholder={intl.formatMessage({ id: 'chat.settings.instructionsPlaceholder' })}
            aria-describedby={`${ids}-instructions-hint`}
            onChange={(event) => setInstructions(event.target.value)}
            autoFocus
          />
          <p className="field-hint" id={`${ids}-instructions-hint`}>
            <FormattedMessage id="chat.settings.instructionsHint" />
          </p>
        </div>
        <fieldset className="field chat-settings-temperature">
          <legend className="field-label">
            <FormattedMessage id="chat.settings.temperature" />
          </legend>
          <label className="checkbox-row">
            <input type="checkbox" checked={modelTemperature} onChange={(event) => setModelTemperature(event.target.checked)} />
            <FormattedMessage id="chat.settings.modelDefault" />
          </label>
          <div className="chat-settings-slider">
            <input
              type="range"
              min={0}
              max={2}
              step={0.05}
              value={temperature}
              disabled={modelTemperature}
              aria-label={intl.formatMessage({ id: 'chat.settings.temperatureSlider' })}
              aria-describedby={`${ids}-temperature-hint`}
              onChange={(event) => setTemperature(Number(event.target.value))}
            />
            <input
              type="number"
              className="input input-sm chat-settings-number"
              min={0}
              max={2}
              step={0.01}
              value={Number.isNaN(temperature) ? '' : temperature}
              disabled={modelTemperature}
              aria-label={intl.formatMessage({ id: 'chat.settings.temperatureValue' })}
              aria-invalid={temperatureError ? true : undefined}
              onChange={(event) => setTemperature(event.target.value === '' ? Number.NaN : Number(event.target.value))}
            />
          </div>
          <p className="field-hint" id={`${ids}-temperature-hint`}>
            <FormattedMessage id="chat.settings.temperatureHint" />
          </p>
          {temperatureError ? (
            <p className="field-error" role="alert">
              {temperatureError}
            </p>
          ) : null}
        </fieldset>
        <div className="field">
          <label className="field-label" htmlFor={`${ids}-max`}>
            <FormattedMessage id="chat.settings.maxTokens" />
          </label>
          <input
            id={`${ids}-max`}
            className="input chat-settings-number"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_TOKENS_LIMIT}
            step={1}
            value={maxTokens}
            placeholder={intl.formatMessage({ id: 'chat.settings.modelDefault' })}
            aria-describedby={`${ids}-max-hint${lengthError ? ` ${ids}-max-error` : ''}`}
            aria-invalid={lengthError ? true : undefined}
            onChange={(event) => setMaxTokens(event.target.value)}
          />
          {lengthError ? (
            <p className="field-error" id={`${ids}-max-error`} role="alert">
              {lengthError}
            </p>
          ) : null}
          <p className="field-hint" id={`${ids}-max-hint`}>
            <FormattedMessage id="chat.settings.maxTokensHint" />
          </p>
        </div>
        <p className="field-hint">
          <FormattedMessage id="chat.settings.extractiveNote" />
        </p>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="dialog-actions chat-settings-actions">
          <Button variant="ghost" onClick={reset} disabled={busy}>
            <FormattedMessage id="chat.settings.reset" />
          </Button>
          <Button onClick={onClose} disabled={busy}>
            <FormattedMessage id="ui.dialog.cancel" />
          </Button>
          <Button variant="primary" type="submit" busy={busy}>
            <FormattedMessage id="chat.settings.save" />
          </Button>
        </div>
      </form>
    </dialog>
  );
}
