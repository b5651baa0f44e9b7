import type { Me } from '../app/session.js';
import { client } from '../api/index.js';
import { Loadable } from '../ui/Loadable.js';
import { Page } from '../ui/Page.js';
import { useLoader } from '../ui/useLoader.js';
import { DatasetDetail } from './datasets/DatasetDetail.js';
import { DatasetList } from './datasets/DatasetList.js';
import { datasetHref, useSelectedDataset } from './datasets/selection.js';

// `me` is kept for parity with the other pages: datasets belong to the organization, not the user.
export function DatasetsPage(_props: { me: Me }) {
  const selected = useSelectedDataset();
  return selected === null ? <DatasetList /> : <OpenDataset key={selected} id={selected} />;
}

function OpenDataset({ id }: { id: string }) {
  const dataset = useLoader(() => client.call('datasets.get', { id }));
  if (dataset.state.status !== 'ready') {
    return (
      <Page
        title="Dataset"
        actions={
          <a className="btn btn-secondary btn-md" href={datasetHref(null)}>
            All datasets
          </a>
        }
      >
        <Loadable state={dataset.state} reload={dataset.reload} loading="Loading the dataset…" shape="page" failed="This dataset could not be opened">
          {() => null}
        </Loadable>
      </Page>
    );
  }
  return <DatasetDetail dataset={dataset.state.data} onChanged={dataset.reload} />;
}
