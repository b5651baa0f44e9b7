import { useHashRoute } from '../../app/routes.js';
import type { Me } from '../../app/session.js';
import { Page } from '../../ui/Page.js';
import { ConfigPane } from './ConfigPane.js';
import { Users } from './Users.js';

const TABS = [
  { id: 'users', label: 'Users', href: '#/admin' },
  { id: 'config', label: 'Configuration', href: '#/admin/config' },
] as const;

type TabId = (typeof TABS)[number]['id'];

/** `#/admin/config` → the configuration; anything else under `#/admin` → users. */
function tabOf(hash: string): TabId {
  return /^#\/admin\/config\b/.test(hash) ? 'config' : 'users';
}

/** Super admins only: the shell shows everyone else a refusal instead, and the server refuses them too. */
export function AdminPage({ me }: { me: Me }) {
  const { hash } = useHashRoute();
  const tab = tabOf(hash);
  return (
    <Page title="Admin" description={`Who can use Parley in ${me.user.organization.name}, and how it behaves for everyone on this machine.`}>
      <nav aria-label="Admin sections" className="subnav">
        <ul>
          {TABS.map((t) => (
            <li key={t.id}>
              <a href={t.href} className="subnav-link" aria-current={t.id === tab ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {tab === 'config' ? <ConfigPane /> : <Users me={me} />}
    </Page>
  );
}
