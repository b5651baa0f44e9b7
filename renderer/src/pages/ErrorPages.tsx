import { hrefOf } from '../app/routes.js';
import { ROLE_LABELS } from '../app/roles.js';
import type { Me } from '../app/session.js';
import { EmptyState } from '../ui/EmptyState.js';
import { AlertIcon, LockIcon } from '../ui/icons.js';
import { Page } from '../ui/Page.js';

/** A page the caller's role does not open. The server refuses its operations too; this only explains. */
export function ForbiddenPage({ me, area }: { me: Me; area: string }) {
  return (
    <Page title={area}>
      <EmptyState icon={<LockIcon size={22} />} title="You don’t have access to this page">
        <p>
          Only super admins can open {area}. You are signed in as {me.user.name}, a {ROLE_LABELS[me.user.role].toLowerCase()} of{' '}
          {me.user.organization.name}. If you need access, ask one of its super admins.
        </p>
        <p>
          <a href={hrefOf('chat')}>Go to Chat</a>
        </p>
      </EmptyState>
    </Page>
  );
}

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <EmptyState icon={<AlertIcon size={22} />} title="There is nothing at this address">
        <p>The link may be mistyped or out of date.</p>
        <p>
          <a href={hrefOf('chat')}>Go to Chat</a>
        </p>
      </EmptyState>
    </Page>
  );
}
