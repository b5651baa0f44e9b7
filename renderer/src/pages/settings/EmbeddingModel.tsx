import { useEffect, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { SelectField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { muted, strong } from './rich.js';

const AUTOMATIC = 'auto';
const KEYWORD_ONLY = 'none';

const SOURCE = {
  configured: 'settings.embedding.source.configured',
  bundled: 'settings.embedding.source.bundled',
  data_dir: 'settings.embedding.source.dataDir',
} as const satisfies Record<'configured' | 'bundled' | 'data_dir', MessageId>;

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
  const intl = useIntl();
  const state = useLoader(load);
  const { reload } = state;
  // A finished download may be the model Automatic picks: read again.
  useEffect(() => {
    if (version > 0) reload();
  }, [version, reload]);
  return (
    <Section title={intl.formatMessage({ id: 'settings.embedding.title' })} description={intl.formatMessage({ id: 'settings.embedding.description' })}>
      <Loadable
        state={state.state}
        reload={reload}
        loading={intl.formatMessage({ id: 'settings.embedding.loading' })}
        shape="list"
        failed={intl.formatMessage({ id: 'settings.embedding.loadFailed' })}
      >
        {(data) => <EmbeddingForm key={data.status.setting} data={data} onSaved={reload} />}
      </Loadable>
    </Section>
  );
}

function EmbeddingForm({ data, onSaved }: { data: Awaited<ReturnType<typeof load>>; onSaved: () => void }) {
  const intl = useIntl();
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
          <FormattedMessage
            id="settings.embedding.inUse"
            values={{ name: status.model.name, source: intl.formatMessage({ id: SOURCE[status.model.source] }), b: strong, muted }}
          />
        ) : (
          <FormattedMessage id={current === AUTOMATIC ? 'settings.embedding.keywordOnlyAutomatic' : 'settings.embedding.keywordOnly'} />
        )}
      </p>
      {vectors && vectors.total > 0 ? (
        <p className="muted" role="status">
          {embedding
            ? intl.formatMessage({ id: 'settings.embedding.progress' }, { embedded: intl.formatNumber(vectors.embedded), total: intl.formatNumber(vectors.total) })
            : intl.formatMessage({ id: 'settings.embedding.done' }, { total: intl.formatNumber(vectors.total) })}
        </p>
      ) : null}
      <SelectField
        label={intl.formatMessage({ id: 'settings.embedding.model' })}
        value={choice}
        onChange={(event) => setChoice(event.target.value)}
        hint={intl.formatMessage({ id: 'settings.embedding.modelHint' })}
      >
        <option value={AUTOMATIC}>{intl.formatMessage({ id: 'settings.embedding.automatic' })}</option>
        <option value={KEYWORD_ONLY}>{intl.formatMessage({ id: 'settings.embedding.keywordOnlyOption' })}</option>
        {choices.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <FormError message={save.error} />
      <div>
        <Button type="submit" busy={save.busy} disabled={choice === current}>
          <FormattedMessage id="settings.embedding.save" />
        </Button>
      </div>
      {choice !== current && choice === KEYWORD_ONLY ? (
        <Alert tone="info">
          <FormattedMessage id="settings.embedding.vectorsKept" />
        </Alert>
      ) : null}
    </form>
  );
}
