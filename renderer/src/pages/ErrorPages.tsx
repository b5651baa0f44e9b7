import { FormattedMessage, useIntl } from 'react-intl';
import { hrefOf } from '../app/routes.js';
import type { Me } from '../app/session.js';
import { EmptyState } from '../ui/EmptyState.js';
import { AlertIcon, LockIcon } from '../ui/icons.js';
import { Page } from '../ui/Page.js';

/** A page the caller's role does not open. The server refuses its operations too; this only explains. */
export function ForbiddenPage({ me, area }: { me: Me; area: 'admin' }) {
  const intl = useIntl();
  const name = intl.formatMessage({ id: `app.nav.${area}` });
  return (
    <Page title={name}>
      <EmptyState icon={<LockIcon size={22} />} title={intl.formatMessage({ id: 'errors.page.forbidden.title' })}>
        <p>
          <FormattedMessage
            id="errors.page.forbidden.body"
            values={{ area: name, name: me.user.name, role: me.user.role, organization: me.user.organization.name }}
          />
        </p>
        <p>
          <a href={hrefOf('chat')}>
            <FormattedMessage id="errors.page.goToChat" />
          </a>
        </p>
      </EmptyState>
    </Page>
  );
}

export function NotFoundPage() {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'errors.page.notFound.pageTitle' })}>
      <EmptyState icon={<AlertIcon size={22} />} title={intl.formatMessage({ id: 'errors.page.notFound.title' })}>
        <p>
          <FormattedMessage id="errors.page.notFound.body" />
        </p>
        <p>
          <a href={hrefOf('chat')}>
            <FormattedMessage id="errors.page.goToChat" />
          </a>
        </p>
      </EmptyState>
    </Page>
  );
}
