import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import type { DiscoveredModel } from '../../../../shared/operations/local-models.js';
import { client } from '../../api/index.js';
import { useAction } from '../../ui/useAction.js';

export type DiscoveredServer = z.output<typeof DiscoveredModel>;

/**
 * A running Ollama / LM Studio server's model, registered in one click as an OpenAI-compatible
 * model: the home screen (chat/HomeSetup.tsx) and Settings → Local models both offer it.
 */
export function useServerRegistration(server: DiscoveredServer, onRegistered: () => void) {
  const models = server.models ?? [];
  const [model, setModel] = useState(models[0] ?? '');
  const register = useAction(async () => {
    await client.call('models.create', { name: `${server.name} ${model}`.slice(0, 100), provider: 'openai_compatible', endpoint_url: server.endpoint_url ?? '', model });
    onRegistered();
  });
  return { models, model, setModel, register };
}

/** The picker of a server's models, labelled for screen readers only (the row names the server). */
export function ServerModelSelect({ id, label, models, model, onChange }: { id: string; label: ReactNode; models: string[]; model: string; onChange: (model: string) => void }) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input select select-sm" value={model} onChange={(e) => onChange(e.target.value)}>
        {models.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </>
  );
}
