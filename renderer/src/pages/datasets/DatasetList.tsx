import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { DatasetIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Page, Section } from '../../ui/Page.js';
import { Time } from '../../ui/Time.js';
import { useLoader } from '../../ui/useLoader.js';
import { CreateDatasetForm } from './CreateDatasetForm.js';
import { datasetHref } from './selection.js';

type Dataset = OutputOf<Operations['datasets.list']>['data'][number];

function open(id: string) {
  window.location.hash = datasetHref(id);
}

/** Every dataset of the organization as cards, and the form that starts a new one. */
export function DatasetList() {
  const datasets = useLoader(() => client.call('datasets.list', { limit: 200 }));
  return (
    <Page title="Datasets" description="The documents your answers draw on: Parley indexes them on this machine so that chat can quote and cite them.">
      <Loadable state={datasets.state} reload={datasets.reload} loading="Loading your datasets…" shape="cards" failed="Your datasets could not be loaded">
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState icon={<DatasetIcon size={22} />} title="Create your first dataset">
              <p>
                A dataset is a collection of documents (PDF, Word, HTML, Markdown, plain text, CSV or JSON). Name it, then drop files in
                it: each is read, split into passages and indexed, and chat answers can cite them.
              </p>
              <CreateDatasetForm onCreated={(d) => open(d.id)} />
            </EmptyState>
          ) : (
            <>
              <Section title="Your datasets" description={`${list.data.length} ${list.data.length === 1 ? 'dataset' : 'datasets'}, newest first.`}>
                <ul className="dataset-grid">
                  {list.data.map((d) => (
                    <DatasetCard key={d.id} dataset={d} />
                  ))}
                </ul>
              </Section>
              <Section title="New dataset" description="Name it now; add files once it is open.">
                <CreateDatasetForm onCreated={(d) => open(d.id)} />
              </Section>
            </>
          )
        }
      </Loadable>
    </Page>
  );
}

function DatasetCard({ dataset }: { dataset: Dataset }) {
  return (
    <li className="dataset-card">
      <a className="dataset-card-link" href={datasetHref(dataset.id)}>
        <span className="dataset-card-icon" aria-hidden="true">
          <DatasetIcon size={18} />
        </span>
        <span className="dataset-card-name">{dataset.name}</span>
      </a>
      {dataset.description ? <p className="dataset-card-description">{dataset.description}</p> : <p className="dataset-card-description muted">No description</p>}
      <p className="dataset-card-meta">
        <span>
          {dataset.artifact_count} {dataset.artifact_count === 1 ? 'file' : 'files'}
        </span>
        <span aria-hidden="true"> · </span>
        <span>
          Updated <Time iso={dataset.updated_at} />
        </span>
      </p>
    </li>
  );
}
