import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  const datasets = useLoader(() => client.call('datasets.list', { limit: 200 }));
  return (
    <Page title={intl.formatMessage({ id: 'datasets.list.title' })} description={intl.formatMessage({ id: 'datasets.list.description' })}>
      <Loadable
        state={datasets.state}
        reload={datasets.reload}
        loading={intl.formatMessage({ id: 'datasets.list.loading' })}
        shape="cards"
        failed={intl.formatMessage({ id: 'datasets.list.failed' })}
      >
        {(list) =>
          list.data.length === 0 ? (
            <EmptyState icon={<DatasetIcon size={22} />} title={intl.formatMessage({ id: 'datasets.list.emptyTitle' })}>
              <p>{intl.formatMessage({ id: 'datasets.list.emptyBody' })}</p>
              <CreateDatasetForm onCreated={(d) => open(d.id)} />
            </EmptyState>
          ) : (
            <>
              <Section
                title={intl.formatMessage({ id: 'datasets.list.yours' })}
                description={intl.formatMessage({ id: 'datasets.list.yoursDescription' }, { count: list.data.length })}
              >
                <ul className="dataset-grid">
                  {list.data.map((d) => (
                    <DatasetCard key={d.id} dataset={d} />
                  ))}
                </ul>
              </Section>
              <Section title={intl.formatMessage({ id: 'datasets.list.new' })} description={intl.formatMessage({ id: 'datasets.list.newDescription' })}>
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
  const intl = useIntl();
  return (
    <li className="dataset-card">
      <a className="dataset-card-link" href={datasetHref(dataset.id)}>
        <span className="dataset-card-icon" aria-hidden="true">
          <DatasetIcon size={18} />
        </span>
        <span className="dataset-card-name">{dataset.name}</span>
      </a>
      {dataset.description ? (
        <p className="dataset-card-description">{dataset.description}</p>
      ) : (
        <p className="dataset-card-description muted">{intl.formatMessage({ id: 'datasets.list.noDescription' })}</p>
      )}
      <p className="dataset-card-meta">
        <span>{intl.formatMessage({ id: 'datasets.list.fileCount' }, { count: dataset.artifact_count })}</span>
        <span aria-hidden="true">{intl.formatMessage({ id: 'datasets.list.dot' })}</span>
        <span>
          <FormattedMessage id="datasets.list.updated" values={{ time: <Time iso={dataset.updated_at} /> }} />
        </span>
      </p>
    </li>
  );
}
