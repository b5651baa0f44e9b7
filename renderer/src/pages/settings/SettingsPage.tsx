import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { roleLabel } from '../../app/roles.js';
import { useHashRoute } from '../../app/routes.js';
import type { Me } from '../../app/session.js';
import { Page, Section } from '../../ui/Page.js';
import { SubNav } from '../../ui/SubNav.js';
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
import { SETTINGS_SECTIONS, settingsSectionOf } from './sections.js';

function Profile({ me }: { me: Me }) {
  const { user, workspace } = me;
  const intl = useIntl();
  return (
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
  );
}

/** Settings: a sub-navigation and one of its sections (sections.ts), each at its own address. */
export function SettingsPage({ me }: { me: Me }) {
  const { user, workspace } = me;
  const isAdmin = user.role === 'admin' || user.role === 'super_admin';
  const [modelsVersion, setModelsVersion] = useState(0);
  // A finished download adds a local model: the models table reads the list again.
  const [localVersion, setLocalVersion] = useState(0);
  const intl = useIntl();
  const { hash } = useHashRoute();
  const current = settingsSectionOf(hash);
  const items = SETTINGS_SECTIONS.map(({ id, labelId, href }) => ({ id, label: intl.formatMessage({ id: labelId }), href }));

  // Switching sections far down a long one would open the next one mid-way: show its top (and,
  // in a narrow window, the tabs above it) instead.
  const layout = useRef<HTMLDivElement>(null);
  const shown = useRef(current);
  useEffect(() => {
    if (shown.current === current) return;
    shown.current = current;
    if ((layout.current?.getBoundingClientRect().top ?? 0) < 0) layout.current?.scrollIntoView({ block: 'start' });
  }, [current]);

  return (
    <Page title={intl.formatMessage({ id: 'settings.page.title' })} description={intl.formatMessage({ id: 'settings.page.description' })}>
      <div className="settings-layout" ref={layout}>
        <SubNav label={intl.formatMessage({ id: 'settings.sections.label' })} items={items} current={current} className="settings-nav" />
        <div className="settings-panel">
          {current === 'general' ? (
            <>
              <Profile me={me} />
              <Appearance />
              <Language />
              <Shortcuts />
            </>
          ) : current === 'models' ? (
            <>
              <Models key={`models-${localVersion}`} isAdmin={isAdmin} onChanged={() => setModelsVersion((v) => v + 1)} />
              <Overrides workspaceId={workspace.id} workspaceName={workspace.name} isAdmin={isAdmin} modelsVersion={modelsVersion} />
            </>
          ) : current === 'local-models' ? (
            <>
              <LocalModels key={`local-${localVersion}`} isAdmin={isAdmin} onChanged={() => setModelsVersion((v) => v + 1)} />
              <ModelCatalog
                isAdmin={isAdmin}
                onDownloaded={() => {
                  setLocalVersion((v) => v + 1);
                  setModelsVersion((v) => v + 1);
                }}
              />
              {user.role === 'super_admin' ? <EmbeddingModel version={localVersion} /> : null}
            </>
          ) : (
            <>
              <LocalServer canEdit={user.role === 'super_admin'} />
              <ApiKeys />
            </>
          )}
        </div>
      </div>
    </Page>
  );
}
