import { useHashRoute } from '../../app/routes.js';
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
  { id: 'users', label: 'Users', href: '#/admin' },
  { id: 'trial', label: 'Trial tokens', href: '#/admin/trial' },
  { id: 'usage', label: 'Usage', href: '#/admin/usage' },
  { id: 'workflows', label: 'Workflows', href: '#/admin/workflows' },
  { id: 'mcp', label: 'MCP', href: '#/admin/mcp' },
  { id: 'config', label: 'Configuration', href: '#/admin/config' },
] as const;

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
  const { hash } = useHashRoute();
  const tab = tabOf(hash);
  return (
    <Page title="Admin" description={`Who can use Parley in ${me.user.organization.name}, how much they use it, and how it behaves for everyone on this machine.`}>
      <SubNav label="Admin sections" items={TABS} current={tab} />
      <TabContent tab={tab} me={me} />
    </Page>
  );
}
