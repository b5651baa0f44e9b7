import { useState } from 'react';
import { useIntl } from 'react-intl';
import { roleLabel } from '../../app/roles.js';
import type { Me } from '../../app/session.js';
import { Page, Section } from '../../ui/Page.js';
import { ApiKeys } from './ApiKeys.js';
import { Appearance } from './Appearance.js';
import { EmbeddingModel } from './EmbeddingModel.js';
import { Language } from './Language.js';
import { Shortcuts } from './Shortcuts.js';
import { LocalModels } from './LocalModels.js';
import { LocalServer } from './LocalServer.js';
import { ModelCatalog } from './ModelCatalog.js';
import { Models } from './Models.js';
import { Overrides } from './Overrides.js';

export function SettingsPage({ me }: { me: Me }) {
  const { user, workspace } = me;
  const isAdmin = user.role === 'admin' || user.role === 'super_admin';
  const [modelsVersion, setModelsVersion] = useState(0);
  // A finished download adds a local model: the models table reads the list again.
  const [localVersion, setLocalVersion] = useState(0);
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'settings.page.title' })} description={intl.formatMessage({ id: 'settings.page.description' })}>
      <Section title={intl.formatMessage({ id: 'settings.profile.title' })} description={intl.formatMessage({ id: 'settings.profile.description' })}>
        <dl className="details">
          <div>
            <dt>{intl.formatMessage({ id: 'settings.profile.name' })}</dt>
            <dd>{user.name}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage({ id: 'settings.profile.email' })}</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage({ id: 'settings.profile.role' })}</dt>
            <dd>{roleLabel(user.role, intl)}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage({ id: 'settings.profile.organization' })}</dt>
            <dd>{user.organization.name}</dd>
          </div>
          <div>
            <dt>{intl.formatMessage({ id: 'settings.profile.workspace' })}</dt>
            <dd>{workspace.name}</dd>
          </div>
        </dl>
      </Section>
      <Appearance />
      <Language />
      <Shortcuts />
      <Models key={`models-${localVersion}`} isAdmin={isAdmin} onChanged={() => setModelsVersion((v) => v + 1)} />
      <LocalModels key={`local-${localVersion}`} isAdmin={isAdmin} onChanged={() => setModelsVersion((v) => v + 1)} />
      <ModelCatalog
        isAdmin={isAdmin}
        onDownloaded={() => {
          setLocalVersion((v) => v + 1);
          setModelsVersion((v) => v + 1);
        }}
      />
      {user.role === 'super_admin' ? <EmbeddingModel version={localVersion} /> : null}
      <Overrides workspaceId={workspace.id} workspaceName={workspace.name} isAdmin={isAdmin} modelsVersion={modelsVersion} />
      <LocalServer canEdit={user.role === 'super_admin'} />
      <ApiKeys />
    </Page>
  );
}
