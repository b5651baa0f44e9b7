import { useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { COMPARISON_MAX_MODELS, COMPARISON_MIN_MODELS, COMPARISON_PROMPT_MAX } from '../../../../shared/operations/comparisons.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { Button } from '../../ui/Button.js';
import { DatasetPicker } from '../chat/DatasetPicker.js';
import type { Model } from '../chat/types.js';
import type { CompareRequest } from './useComparison.js';

export interface CompareFormProps {
  models: Model[];
  datasets: Array<{ id: string; name: string }>;
  streaming: boolean;
  onCompare: (request: CompareRequest) => void;
  onStop: () => void;
  /** A comparison reopened from the history: the form takes its prompt, models, datasets and mode. */
  refill?: { id: string; prompt: string; model_ids: string[]; dataset_ids: string[]; blind: boolean } | null;
}

/**
 * The prompt, the models to ask (2–8) and how: with datasets, blind. While answers stream the
 * form is locked and Stop (or Esc) ends them.
 */
/** A model's status beside its name, when it is not simply available. */
const MODEL_STATUS: Record<Exclude<Model['status'], 'available'>, MessageId> = {
  degraded: 'compare.form.modelStatus.degraded',
  unavailable: 'compare.form.modelStatus.unavailable',
};

export function CompareForm({ models, datasets, streaming, onCompare, onStop, refill = null }: CompareFormProps) {
  const intl = useIntl();
  const id = useId();
  const [prompt, setPrompt] = useState('');
  // Two models to start with, registered ones before the built-in one: that is what people compare.
  const [chosen, setChosen] = useState<string[]>(() =>
    models
      .filter((m) => m.status !== 'unavailable')
      .sort((a, b) => Number(a.kind === 'builtin') - Number(b.kind === 'builtin'))
      .slice(0, 2)
      .map((m) => m.id),
  );
  const [datasetIds, setDatasetIds] = useState<string[]>([]);
  const [blind, setBlind] = useState(false);

  // Reopening a comparison fills the form with what it asked, so it can be asked again or changed.
  const refilled = refill?.id ?? null;
  useEffect(() => {
    if (!refill) return;
    setPrompt(refill.prompt);
    const known = refill.model_ids.filter((m) => models.some((x) => x.id === m));
    if (known.length > 0) setChosen(known.slice(0, COMPARISON_MAX_MODELS));
    setDatasetIds(refill.dataset_ids.filter((d) => datasets.some((x) => x.id === d)));
    setBlind(refill.blind);
    // Only when another comparison is opened: later edits to the form are the user's.
  }, [refilled]);

  // Esc stops, wherever focus is: the prompt is disabled meanwhile, so focus may be anywhere.
  useEffect(() => {
    if (!streaming) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onStop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [streaming, onStop]);

  const tooFew = chosen.length < COMPARISON_MIN_MODELS;
  const full = chosen.length >= COMPARISON_MAX_MODELS;
  const canSubmit = !streaming && !tooFew && prompt.trim() !== '';
  const submit = () => {
    if (!canSubmit) return;
    onCompare({ prompt, model_ids: chosen, dataset_ids: datasetIds, blind });
  };
  const toggle = (modelId: string, on: boolean) => setChosen((ids) => (on ? [...ids, modelId] : ids.filter((m) => m !== modelId)));

  return (
    <form
      className="compare-form"
      aria-label={intl.formatMessage({ id: 'compare.form.label' })}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${id}-prompt`} className="field-label">
        {intl.formatMessage({ id: 'compare.form.prompt' })}
      </label>
      <textarea
        id={`${id}-prompt`}
        className="compare-prompt"
        rows={3}
        maxLength={COMPARISON_PROMPT_MAX}
        placeholder={intl.formatMessage({ id: 'compare.form.placeholder' })}
        value={prompt}
        disabled={streaming}
        onChange={(event) => setPrompt(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <fieldset className="compare-models" disabled={streaming}>
        <legend className="field-label">
          <FormattedMessage
            id="compare.form.modelsChosen"
            values={{
              count: chosen.length,
              min: COMPARISON_MIN_MODELS,
              max: COMPARISON_MAX_MODELS,
              chosen: (chunks) => <span className="compare-count">{chunks}</span>,
            }}
          />
        </legend>
        <div className="model-chips">
          {models.map((m) => {
            const checked = chosen.includes(m.id);
            return (
              <label key={m.id} className={`model-chip${checked ? ' is-checked' : ''}`} htmlFor={`${id}-${m.id}`}>
                <input
                  id={`${id}-${m.id}`}
                  type="checkbox"
                  checked={checked}
                  disabled={!checked && full}
                  onChange={(event) => toggle(m.id, event.target.checked)}
                />
                <span>{m.name}</span>
                {m.status !== 'available' ? <span className="model-chip-status">{intl.formatMessage({ id: MODEL_STATUS[m.status] })}</span> : null}
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="compare-bar">
        <div className="compare-options">
          <DatasetPicker datasets={datasets} value={datasetIds} onChange={setDatasetIds} disabled={streaming} legend={intl.formatMessage({ id: 'compare.form.datasetsLegend' })} />
          <label className="checkbox-row compare-blind" htmlFor={`${id}-blind`}>
            <input id={`${id}-blind`} type="checkbox" checked={blind} disabled={streaming} onChange={(event) => setBlind(event.target.checked)} />
            <FormattedMessage id="compare.form.blind" values={{ muted: (chunks) => <span className="muted">{chunks}</span> }} />
          </label>
        </div>
        {streaming ? (
          <Button variant="secondary" onClick={onStop} aria-keyshortcuts="Escape">
            {intl.formatMessage({ id: 'compare.form.stop' })}
          </Button>
        ) : (
          <Button variant="primary" type="submit" disabled={!canSubmit}>
            {intl.formatMessage({ id: 'compare.form.submit' })}
          </Button>
        )}
      </div>
      {tooFew && !streaming ? <p className="field-hint">{intl.formatMessage({ id: 'compare.form.tooFew' })}</p> : null}
    </form>
  );
}
