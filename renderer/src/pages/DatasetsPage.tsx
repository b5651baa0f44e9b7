import type { Me } from '../app/session.js';
import { DatasetIcon } from '../ui/icons.js';
import { Upcoming } from './Upcoming.js';

export function DatasetsPage({ me }: { me: Me }) {
  return (
    <Upcoming
      me={me}
      title="Datasets"
      description="The documents your answers draw on."
      icon={<DatasetIcon size={22} />}
      heading="Your datasets will appear here"
    >
      <p>
        A dataset is a collection of documents (PDF, Word, HTML, Markdown, plain text, CSV or JSON) that Parley indexes on this
        machine so that chat answers can quote and cite them. Here you will upload files and follow them until they are ready.
      </p>
      <p className="empty-note">Uploading from this window is not available in this version yet.</p>
    </Upcoming>
  );
}
