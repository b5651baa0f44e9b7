import { FormattedMessage } from 'react-intl';
import { LOCAL_MODELS_HASH } from '../settings/sections.js';
import { HomeSetup } from './HomeSetup.js';

/**
 * The home screen's lead on a fresh install, while the built-in extractive model is the only one:
 * it can only quote datasets, so the way forward is a model that can chat — offered right here to
 * an admin (a detected Ollama / LM Studio, a download), asked of an admin by anyone else — or a
 * dataset to ask.
 */
export function GettingStarted({ canManageModels, hasDatasets, onModelAdded }: { canManageModels: boolean; hasDatasets: boolean; onModelAdded: () => void }) {
  return (
    // Not a labelled region: its name would hold "model", and the composer's "Model" picker is found by that label.
    <div className="getting-started">
      <h3>
        <FormattedMessage id="chat.gettingStarted.title" />
      </h3>
      <p>
        <FormattedMessage id="chat.gettingStarted.onlyBuiltIn" />
      </p>
      {canManageModels ? (
        <HomeSetup onAdded={onModelAdded} />
      ) : (
        <p className="getting-started-ask">
          <FormattedMessage id="chat.gettingStarted.askAdmin" values={{ b: (chunks) => <strong>{chunks}</strong> }} />
        </p>
      )}
      <ul className="getting-started-actions">
        {canManageModels ? (
          <li>
            <a href={LOCAL_MODELS_HASH}>
              <strong>
                <FormattedMessage id="chat.gettingStarted.moreModels" />
              </strong>
              <span>
                <FormattedMessage id="chat.gettingStarted.moreModelsText" />
              </span>
            </a>
          </li>
        ) : null}
        <li>
          <a href="#/datasets">
            <strong>
              <FormattedMessage id={hasDatasets ? 'chat.gettingStarted.addFiles' : 'chat.gettingStarted.createDataset'} />
            </strong>
            <span>
              <FormattedMessage id="chat.gettingStarted.uploadText" />
            </span>
          </a>
        </li>
      </ul>
    </div>
  );
}
