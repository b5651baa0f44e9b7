import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { useLoader } from '../../ui/useLoader.js';
import { Carousel } from './Carousel.js';
import { GettingStarted } from './GettingStarted.js';
import type { Model } from './types.js';

export interface HomeProps {
  onPrompt: (prompt: string, datasetId: string | null) => void;
  onDataset: (datasetId: string) => void;
  selectedDatasets: string[];
  /** The models chat can use, once loaded: without one that generates, Home leads to getting one. */
  models: Model[] | null;
  /** Whether the models' load has ended, with them or failing (Home waits for it before showing what depends on it). */
  modelsSettled: boolean;
  /** Admins add and download models; others are told to ask one. */
  canManageModels: boolean;
  /** A model was added here (a detected server registered, a download finished): the models are read again. */
  onModelAdded: () => void;
}

/** Whether a model other than the built-in extractive one can answer. */
export function hasGenerativeModel(models: Model[]): boolean {
  return models.some((m) => m.provider !== 'extractive' && m.status !== 'unavailable');
}

/**
 * The Chat page before a thread is chosen: prompts and datasets to start from. What depends on a
 * load (the models, the suggestions) appears at once when all of it is in, behind one placeholder
 * meanwhile: sections that came in one after another would move what is below them, and a click
 * aimed at a dataset could land on the section that pushed it down.
 */
export function Home({ onPrompt, onDataset, selectedDatasets, models, modelsSettled, canManageModels, onModelAdded }: HomeProps) {
  const intl = useIntl();
  const prompts = useLoader(() => client.call('suggestions.prompts', {}));
  const datasets = useLoader(() => client.call('suggestions.datasets', {}));
  const settled = modelsSettled && prompts.state.status !== 'loading' && datasets.state.status !== 'loading';
  const onlyExtractive = models !== null && !hasGenerativeModel(models);
  const hasDatasets = datasets.state.status === 'ready' && datasets.state.data.data.length > 0;
  return (
    <div className="chat-home">
      <div className="chat-home-intro">
        <h2>
          <FormattedMessage id="chat.home.title" />
        </h2>
        {settled ? (
          <p className="muted">
            <FormattedMessage id={onlyExtractive ? 'chat.home.introExtractive' : 'chat.home.intro'} />
          </p>
        ) : null}
      </div>
      {!settled ? <Skeleton shape="cards" label={intl.formatMessage({ id: 'chat.home.loadingSuggestions' })} /> : null}
      {settled && onlyExtractive ? <GettingStarted canManageModels={canManageModels} hasDatasets={hasDatasets} onModelAdded={onModelAdded} /> : null}
      {settled && prompts.state.status === 'ready' && prompts.state.data.data.length > 0 ? (
        <Carousel label={intl.formatMessage({ id: 'chat.home.suggestedPrompts' })} orientation={prompts.state.data.orientation} items={prompts.state.data.data} keyOf={(p) => p.id}>
          {(p, tabIndex) => (
            <button type="button" className="card-button" tabIndex={tabIndex} onClick={() => onPrompt(p.prompt, p.dataset_id)}>
              <span className="card-title">{p.title}</span>
              <span className="card-text">{p.prompt}</span>
            </button>
          )}
        </Carousel>
      ) : null}
      {settled && datasets.state.status === 'ready' && datasets.state.data.data.length > 0 ? (
        <Carousel label={intl.formatMessage({ id: 'chat.home.suggestedDatasets' })} orientation={datasets.state.data.orientation} items={datasets.state.data.data} keyOf={(d) => d.id}>
          {(d, tabIndex) => (
            <button type="button" className="card-button" tabIndex={tabIndex} aria-pressed={selectedDatasets.includes(d.id)} onClick={() => onDataset(d.id)}>
              <span className="card-title">{d.name}</span>
              <span className="card-text">{d.description ?? intl.formatMessage({ id: 'chat.home.filesReady' }, { count: d.ready_count })}</span>
            </button>
          )}
        </Carousel>
      ) : null}
    </div>
  );
}
