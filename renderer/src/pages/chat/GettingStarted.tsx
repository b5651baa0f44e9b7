import { LOCAL_MODELS_HASH } from '../settings/ModelCatalog.js';
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
      <h3>Get a model that can chat</h3>
      <p>Only Parley’s built-in model is set up. It answers by quoting your datasets, with citations, and cannot write, explain or converse.</p>
      {canManageModels ? (
        <HomeSetup onAdded={onModelAdded} />
      ) : (
        <p className="getting-started-ask">
          <strong>Ask an admin of Parley to add a model.</strong> Until then, ask questions about your datasets: the built-in model answers with the passages that hold the answer.
        </p>
      )}
      <ul className="getting-started-actions">
        {canManageModels ? (
          <li>
            <a href={LOCAL_MODELS_HASH}>
              <strong>More models and endpoints</strong>
              <span>Settings: every recommended model, an OpenAI-compatible or Anthropic endpoint.</span>
            </a>
          </li>
        ) : null}
        <li>
          <a href="#/datasets">
            <strong>{hasDatasets ? 'Add files to a dataset' : 'Create a dataset'}</strong>
            <span>Upload documents; the built-in model answers from them and cites the passages.</span>
          </a>
        </li>
      </ul>
    </div>
  );
}
