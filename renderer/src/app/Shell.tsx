import { lazy, Suspense, useCallback, useRef, type ComponentType } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { connection } from '../api/index.js';
import { ForbiddenPage, NotFoundPage } from '../pages/ErrorPages.js';
import { Button } from '../ui/Button.js';
import { ErrorBoundary } from '../ui/ErrorBoundary.js';
import { Skeleton } from '../ui/Skeleton.js';
import { Toaster } from '../ui/Toaster.js';
import { ChatIcon, CompareIcon, DatasetIcon, Logo, SettingsIcon, ShieldIcon, SignOutIcon } from '../ui/icons.js';
import { initialsOf, roleLabel } from './roles.js';
import { hrefOf, ROUTES, useHashRoute, type RouteId } from './routes.js';
import type { Me } from './session.js';
import { focusComposer, SHORTCUTS, useShortcuts, useTabToSkipLinks } from './shortcuts.js';
import { useSession } from './store.js';
import { useConnectionToasts } from './useConnectionToasts.js';

const ICONS: Record<RouteId, ComponentType<{ size?: number }>> = {
  chat: ChatIcon,
  datasets: DatasetIcon,
  compare: CompareIcon,
  settings: SettingsIcon,
  admin: ShieldIcon,
};

// Each page is fetched when first opened, so the app starts with the shell and one page only.
const ChatPage = lazy(() => import('../pages/ChatPage.js').then((m) => ({ default: m.ChatPage })));
const DatasetsPage = lazy(() => import('../pages/DatasetsPage.js').then((m) => ({ default: m.DatasetsPage })));
const ComparePage = lazy(() => import('../pages/ComparePage.js').then((m) => ({ default: m.ComparePage })));
const SettingsPage = lazy(() => import('../pages/settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const AdminPage = lazy(() => import('../pages/admin/AdminPage.js').then((m) => ({ default: m.AdminPage })));

function PageFor({ route, me }: { route: RouteId | null; me: Me }) {
  switch (route) {
    case 'chat':
      return <ChatPage me={me} />;
    case 'datasets':
      return <DatasetsPage me={me} />;
    case 'compare':
      return <ComparePage me={me} />;
    case 'settings':
      return <SettingsPage me={me} />;
    case 'admin':
      return me.user.role === 'super_admin' ? <AdminPage me={me} /> : <ForbiddenPage me={me} area="admin" />;
    case null:
      return <NotFoundPage />;
  }
}

function focusMain() {
  document.getElementById('main')?.focus();
}

/** The frame around every page: navigation, who is signed in, and the page itself. */
export function Shell({ me }: { me: Me }) {
  const { route } = useHashRoute();
  const signOut = useSession((s) => s.signOut);
  const intl = useIntl();
  useConnectionToasts();
  useShortcuts();
  const skipLinks = useRef<HTMLDivElement>(null);
  useTabToSkipLinks(useCallback(() => skipLinks.current?.querySelector('button') ?? null, []));
  const isSuperAdmin = me.user.role === 'super_admin';
  const links = ROUTES.filter((r) => !r.superAdminOnly || isSuperAdmin);

  return (
    <div className="shell">
      <div className="skip-links" ref={skipLinks}>
        {route === 'chat' ? (
          <button type="button" className="skip-link" onClick={() => void focusComposer()} aria-keyshortcuts={SHORTCUTS.focusComposer.aria}>
            <FormattedMessage id="app.skip.composer" />
          </button>
        ) : null}
        <button type="button" className="skip-link" onClick={focusMain}>
          <FormattedMessage id="app.skip.content" />
        </button>
      </div>
      <header className="sidebar">
        <div className="brand">
          <Logo size={26} />
          <span className="brand-name">
            <FormattedMessage id="app.brand.name" />
          </span>
        </div>
        <nav aria-label={intl.formatMessage({ id: 'app.nav.label' })} className="nav">
          <ul>
            {links.map((r) => {
              const Icon = ICONS[r.id];
              const current = r.id === route;
              return (
                <li key={r.id}>
                  <a href={hrefOf(r.id)} className="nav-link" aria-current={current ? 'page' : undefined}>
                    <Icon size={17} />
                    <span>
                      <FormattedMessage id={r.labelId} />
                    </span>
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <section className="account" aria-label={intl.formatMessage({ id: 'app.account.label' })}>
          <div className="account-who">
            <span className="avatar" aria-hidden="true">
              {initialsOf(me.user.name)}
            </span>
            <div className="account-text">
              <p className="account-name" data-testid="account-name">
                {me.user.name}
              </p>
              <p className="account-org">
                <span data-testid="account-org">{me.user.organization.name}</span>
                <span aria-hidden="true">
                  <FormattedMessage id="app.account.dot" />
                </span>
                <span className="visually-hidden">
                  <FormattedMessage id="app.account.comma" />
                </span>
                <span className="account-role">{roleLabel(me.user.role, intl)}</span>
              </p>
            </div>
          </div>
          {connection.kind === 'browser' ? (
            <Button variant="ghost" size="sm" icon={<SignOutIcon />} onClick={() => signOut()} className="account-signout" title={intl.formatMessage({ id: 'app.account.signOut' })}>
              <span className="account-signout-label">
                <FormattedMessage id="app.account.signOut" />
              </span>
            </Button>
          ) : null}
        </section>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <ErrorBoundary what="page" resetKey={route}>
          <Suspense fallback={<Skeleton shape="page" label={intl.formatMessage({ id: 'app.shell.loadingPage' })} />}>
            <PageFor route={route} me={me} />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Toaster />
    </div>
  );
}
