import { useIntl } from 'react-intl';
import { useHashRoute } from '../../app/routes.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import type { Me } from '../../app/session.js';
import { Page } from '../../ui/Page.js';
import { SubNav } from '../../ui/SubNav.js';
import { ConfigPane } from './ConfigPane.js';
import { McpServers } from './McpServers.js';
import { TrialTokens } from './TrialTokens.js';
import { Usage } from './Usage.js';
import { Users } from './Users.js';
import { Workflows } from './Workflows.js';

const TABS = [
  { id: 'users', labelId: 'admin.tabs.users', href: '#/admin' },
  { id: 'trial', labelId: 'admin.tabs.trial', href: '#/admin/trial' },
  { id: 'usage', labelId: 'admin.tabs.usage', href: '#/admin/usage' },
  { id: 'workflows', labelId: 'admin.tabs.workflows', href: '#/admin/workflows' },
  { id: 'mcp', labelId: 'admin.tabs.mcp', href: '#/admin/mcp' },
  { id: 'config', labelId: 'admin.tabs.config', href: '#/admin/config' },
] as const satisfies readonly { id: string; labelId: MessageId; href: string }[];

type TabId = (typeof TABS)[number]['id'];

/** `#/admin/<tab>` → that tab; anything else under `#/admin` → users. */
function tabOf(hash: string): TabId {
  const segment = /^#\/admin\/([a-z]+)\b/.exec(hash)?.[1];
  return TABS.find((t) => t.id === segment)?.id ?? 'users';
}

function TabContent({ tab, me }: { tab: TabId; me: Me }) {
  switch (tab) {
    case 'config':
      return <ConfigPane />;
    case 'usage':
      return <Usage />;
    case 'workflows':
      return <Workflows />;
    case 'mcp':
      return <McpServers />;
    case 'trial':
      return <TrialTokens />;
    default:
      return <Users me={me} />;
  }
}

/** Super admins only: the shell shows everyone else a refusal instead, and the server refuses them too. */
export function AdminPage({ me }: { me: Me }) {
  const intl = useIntl();
  const { hash } = useHashRoute();
  const tab = tabOf(hash);
  const items = TABS.map(({ id, labelId, href }) => ({ id, label: intl.formatMessage({ id: labelId }), href }));
  return (
    <Page
      title={intl.formatMessage({ id: 'admin.page.title' })}
      description={intl.formatMessage({ id: 'admin.page.description' }, { organization: me.user.organization.name })}
    >
      <SubNav label={intl.formatMessage({ id: 'admin.page.sections' })} items={items} current={tab} />
      <TabContent tab={tab} me={me} />
    </Page>
  );
}
