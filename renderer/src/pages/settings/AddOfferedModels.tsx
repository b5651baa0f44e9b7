import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';
import { Button } from '../../ui/Button.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';

export interface AddOfferedModelsProps {
  /** The ids "List models" found at the endpoint. */
  offered: string[];
  provider: 'openai_compatible' | 'anthropic';
  endpoint: string;
  apiKey: string;
  /** The form's Name field: when given, it prefixes every model's id to name it. */
  namePrefix: string;
  /** The form's "Reads images": each model added reads images when it is ticked. */
  vision?: boolean;
  /** Some were added: the list behind the form shows them now, even when others failed. */
  onAdded: () => void;
  /** All the ticked ones were added: the form has nothing left to do. */
  onDone: () => void;
}

interface Failure {
  model: string;
  reason: string;
}

/**
 * One connection, all its models: ticks several of an endpoint's listed models and registers each
 * as its own model with the same URL and key, one `models.create` per model. Those that fail are
 * reported and stay ticked to retry; those added leave the list, so a retry cannot add them twice.
 */
export function AddOfferedModels({ offered, provider, endpoint, apiKey, namePrefix, vision = false, onAdded, onDone }: AddOfferedModelsProps) {
  const intl = useIntl();
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<{ added: number; total: number; failures: Failure[] } | null>(null);
  const left = offered.filter((id) => !added.has(id));
  const chosen = left.filter((id) => picked.has(id));
  const allPicked = left.length > 0 && chosen.length === left.length;

  function toggle(id: string, on: boolean) {
    setPicked((p) => {
      const next = new Set(p);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const addAll = useAction(async () => {
    setOutcome(null);
    const done: string[] = [];
    const failures: Failure[] = [];
    // One after another: the service stores them in the order listed, and a refusal names its model.
    for (const id of chosen) {
      try {
        await client.call('models.create', {
          name: (namePrefix.trim() ? `${namePrefix.trim()} ${id}` : id).slice(0, 100),
          provider,
          ...(endpoint.trim() ? { endpoint_url: endpoint.trim() } : {}),
          model: id,
          ...(apiKey ? { api_key: apiKey } : {}),
          ...(vision ? { capabilities: { vision } } : {}),
        });
        done.push(id);
      } catch (error) {
        failures.push({ model: id, reason: errorText(error, intl) });
      }
    }
    if (done.length > 0) {
      setAdded((a) => new Set([...a, ...done]));
      onAdded();
    }
    if (failures.length === 0) {
      onDone();
      return;
    }
    setOutcome({ added: done.length, total: chosen.length, failures });
  });

  if (left.length < 2 && outcome === null) return null;
  return (
    <fieldset className="model-batch">
      <legend>
        <FormattedMessage id="settings.modelForm.batch.legend" />
      </legend>
      <label className="checkbox-row">
        <input type="checkbox" checked={allPicked} disabled={addAll.busy || left.length === 0} onChange={(e) => setPicked(e.target.checked ? new Set(left) : new Set())} />
        <FormattedMessage id="settings.modelForm.batch.selectAll" values={{ count: left.length }} />
      </label>
      <ul className="model-batch-list">
        {left.map((id) => (
          <li key={id}>
            <label className="checkbox-row">
              <input type="checkbox" checked={picked.has(id)} disabled={addAll.busy} onChange={(e) => toggle(id, e.target.checked)} />
              {id}
            </label>
          </li>
        ))}
      </ul>
      {outcome ? (
        <div className="field-error" role="alert">
          <p>
            <FormattedMessage id="settings.modelForm.batch.partial" values={{ added: outcome.added, total: outcome.total }} />
          </p>
          <ul>
            {outcome.failures.map((f) => (
              <li key={f.model}>
                <FormattedMessage id="settings.modelForm.batch.failure" values={{ model: f.model, reason: f.reason }} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Button icon={<PlusIcon />} busy={addAll.busy} disabled={chosen.length === 0} onClick={() => void addAll.run()}>
        <FormattedMessage id="settings.modelForm.batch.add" values={{ count: chosen.length }} />
      </Button>
    </fieldset>
  );
}
