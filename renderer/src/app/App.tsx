import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';
import { Logo } from '../ui/icons.js';
import { SignInPage } from '../pages/SignInPage.js';
import { Shell } from './Shell.js';
import { useSession } from './store.js';

export function App() {
  const session = useSession((s) => s.session);
  const start = useSession((s) => s.start);
  const intl = useIntl();

  useEffect(() => {
    void start();
  }, [start]);

  switch (session.status) {
    case 'starting':
      return (
        <main className="splash" aria-busy="true">
          <Logo size={40} />
          <p role="status">
            <FormattedMessage id="app.splash.loading" />
          </p>
        </main>
      );
    case 'signed-out':
      return <SignInPage notice={session.notice} />;
    case 'failed':
      return (
        <main className="splash">
          <div className="splash-card">
            <Logo size={40} />
            <h1>
              <FormattedMessage id="app.failed.heading" />
            </h1>
            <Alert tone="error" title={intl.formatMessage({ id: 'app.failed.title' })}>
              {session.error}
            </Alert>
            <Button variant="primary" onClick={() => void start()}>
              <FormattedMessage id="app.failed.retry" />
            </Button>
          </div>
        </main>
      );
    case 'signed-in':
      return <Shell me={session.me} />;
  }
}
