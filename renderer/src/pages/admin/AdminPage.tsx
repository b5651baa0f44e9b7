import type { Me } from '../../app/session.js';
import { Page } from '../../ui/Page.js';
import { Users } from './Users.js';

/** Super admins only: the shell shows everyone else a refusal instead, and the server refuses them too. */
export function AdminPage({ me }: { me: Me }) {
  return (
    <Page title="Admin" description={`Manage who can use Parley in ${me.user.organization.name}.`}>
      <Users me={me} />
    </Page>
  );
}
