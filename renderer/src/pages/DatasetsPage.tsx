import { useIntl } from 'react-intl';
import type { Me } from '../app/session.js';
import { client } from '../api/index.js';
import { Loadable } from '../ui/Loadable.js';
import { Page } from '../ui/Page.js';
import { useLoader } from '../ui/useLoader.js';
import { DatasetDetail } from './datasets/DatasetDetail.js';
import { DatasetList } from './datasets/DatasetList.js';
import { datasetHref, useSelectedDataset } from './datasets/selection.js';

// Datasets belong to the organization, not the user; following a folder on disk is an administrator's (issue 30).
export function DatasetsPage({ me }: { me: Me }) {
  const selected = useSelectedDataset();
  const canManageFolders = me.user.role === 'admin' || me.user.role === 'super_admin';
  return selected === null ? <DatasetList /> : <OpenDataset key={selected} id={selected} canManageFolders={canManageFolders} />;
}

function OpenDataset({ id, canManageFolders }: { id: string; canManageFolders: boolean }) {
  const intl = useIntl();
  const dataset = useLoader(() => client.call('datasets.get', { id }));
  if (dataset.state.status !== 'ready') {
    return (
      <Page
        title={intl.formatMessage({ id: 'datasets.page.title' })}
        actions={
          <a className="btn btn-secondary btn-md" href={datasetHref(null)}>
            {intl.formatMessage({ id: 'datasets.common.allDatasets' })}
          </a>
        }
      >
        <Loadable
          state={dataset.state}
          reload={dataset.reload}
          loading={intl.formatMessage({ id: 'datasets.page.loading' })}
          shape="page"
          failed={intl.formatMessage({ id: 'datasets.page.failed' })}
        >
          {() => null}
        </Loadable>
      </Page>
    );
  }
  return <DatasetDetail dataset={dataset.state.data} onChanged={dataset.reload} canManageFolders={canManageFolders} />;
}
