import { useEffect, useState, type FormEvent } from 'react';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { SelectField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';

const AUTOMATIC = 'auto';
const KEYWORD_ONLY = 'none';

const SOURCE: Record<'configured' | 'bundled' | 'data_dir', string> = {
  configured: 'chosen here',
  bundled: 'shipped with Parley',
  data_dir: 'found in Parley’s models folder',
};

const load = async () => {
  const [status, models] = await Promise.all([client.call('search.embedding', {}), client.call('models.list', {})]);
  // Local embedding models, and whatever is chosen now (a registered embeddings endpoint is no local file).
  const choices = models.data.filter((m) => m.local?.purpose === 'embedding' || m.id === status.setting).map((m) => ({ id: m.id, name: m.name }));
  return { status, choices };
};

/**
 * Which model embeds the datasets for hybrid search (`[retrieval] embedding_model`), for super
 * admins: Automatic (the one shipped with Parley, else one downloaded into its models folder),
 * keyword only, or a local embedding model. Another choice embeds every file again in the
 * background; the files' lists show each one's progress.
 */
export function EmbeddingModel({ version }: { version: number }) {
  const state = useLoader(load);
  const { reload } = state;
  // A finished download may be the model Automatic picks: read again.
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  return (
    <Section title="Search embeddings" description="The model that embeds your files for hybrid search (meaning as well as words). Everything stays on this machine.">
      <Loadable state={state.state} reload={reload} loading="Loading the embedding model…" shape="list" failed="The embedding model could not be loaded">
        {(data) => <EmbeddingForm key={data.status.setting} data={data} onSaved={reload} />}
      </Loadable>
    </Section>
  );
}

function EmbeddingForm({ data, onSaved }: { data: Awaited<ReturnType<typeof load>>; onSaved: () => void }) {
  const { status, choices } = data;
  const current = status.setting === '' ? AUTOMATIC : status.setting;
  const [choice, setChoice] = useState(current);
  const save = useAction(async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const config = await client.call('admin.config.get', {});
    await client.call('admin.config.patch', { values: { 'retrieval.embedding_model': choice }, base_version: config.version });
    onSaved();
  });
  const vectors = status.vectors;
  const embedding = vectors !== null && vectors.embedded < vectors.total;
  // The files are embedded in the background: the count follows while it runs.
  useEffect(() => {
    if (!embedding) return;
    const timer = setTimeout(onSaved, 2000);
    return () => clearTimeout(timer);
  }, [embedding, vectors, onSaved]);
  return (
    <form className="stack-form" onSubmit={(event) => void save.run(event)}>
      <p>
        {status.model ? (
          <>
            In use: <strong>{status.model.name}</strong> <span className="muted">({SOURCE[status.model.source]})</span>
          </>
        ) : (
          <>Search is by keyword only{current === AUTOMATIC ? ': no embedding model is here yet. Download one from the recommended models above (the first is small).' : '.'}</>
        )}
      </p>
      {vectors && vectors.total > 0 ? (
        <p className="muted" role="status">
          {embedding
            ? `Embedding the files: ${vectors.embedded.toLocaleString('en')} of ${vectors.total.toLocaleString('en')} passages. Search ranks by keyword until it is done.`
            : `All ${vectors.total.toLocaleString('en')} passages are embedded.`}
        </p>
      ) : null}
      <SelectField
        label="Embedding model"
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
        hint="Another model embeds every file again in the background; each file shows its progress."
      >
        <option value={AUTOMATIC}>Automatic</option>
        <option value={KEYWORD_ONLY}>Keyword only</option>
        {choices.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <FormError message={save.error} />
      <div>
        <Button type="submit" busy={save.busy} disabled={choice === current}>
          Save embedding model
        </Button>
      </div>
      {choice !== current && choice === KEYWORD_ONLY ? <Alert tone="info">The vectors already made are kept: choosing the same model again needs no new embedding.</Alert> : null}
    </form>
  );
}
