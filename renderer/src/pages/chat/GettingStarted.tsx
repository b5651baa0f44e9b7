import { LOCAL_MODELS_HASH } from '../settings/ModelCatalog.js';

/**
 * The home screen's lead on a fresh install, while the built-in extractive model is the only one:
 * it can only quote datasets, so the way forward is a model that can chat, or a dataset to ask.
 */
export function GettingStarted({ canManageModels, hasDatasets }: { canManageModels: boolean; hasDatasets: boolean }) {
  return (
    // Not a labelled region: its name would hold "model", and the composer's "Model" picker is found by that label.
    <div className="getting-started">
      <h3>Get a model that can chat</h3>
      <p>
        Only Parley’s built-in model is set up. It answers by quoting your datasets, with citations, and cannot write, explain or converse.
        {canManageModels ? ' Add a model to chat about anything:' : ' Ask an admin to add a model; meanwhile you can ask your datasets:'}
      </p>
      <ul className="getting-started-actions">
        {canManageModels ? (
          <>
            <li>
              <a href={LOCAL_MODELS_HASH}>
                <strong>Download a local model</strong>
                <span>Runs on this machine, offline and private. Recommended models from 0.5 GB.</span>
              </a>
            </li>
            <li>
              <a href="#/settings">
                <strong>Connect a model server</strong>
                <span>An OpenAI-compatible endpoint: OpenAI, or Ollama and LM Studio running here.</span>
              </a>
            </li>
          </>
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
