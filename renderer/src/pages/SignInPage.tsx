import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { takeOidcRefusal, useOidcProvider } from '../app/oidc-sign-in.js';
import { useSession } from '../app/store.js';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';
import { TextField } from '../ui/Field.js';
import { Logo } from '../ui/icons.js';
import { useAction } from '../ui/useAction.js';

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** Browser only: the app acts as whoever owns the API key pasted here. */
export function SignInPage({ notice }: { notice: string | null }) {
  const intl = useIntl();
  const signIn = useSession((s) => s.signIn);
  const [token, setToken] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const provider = useOidcProvider();
  // Read once: the reason leaves the URL as it is read.
  const [refusal] = useState(() => takeOidcRefusal());
  const check = useAction(async () => {
    const problem = await signIn(token);
    // On success this page is gone; only a failure leaves something to show.
    if (problem) {
      field.current?.focus();
      throw new Error(problem);
    }
  });

  useEffect(() => {
    document.title = intl.formatMessage({ id: 'app.signIn.documentTitle' });
  }, [intl]);

  useEffect(() => {
    field.current?.focus();
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void check.run();
  }

  return (
    <main className="signin">
      <div className="signin-card">
        <div className="signin-brand">
          <Logo size={36} />
        </div>
        <h1>
          <FormattedMessage id="app.signIn.heading" />
        </h1>
        <p className="signin-lead">
          <FormattedMessage id="app.signIn.lead" />
        </p>
        {notice ? <Alert tone="warning">{notice}</Alert> : null}
        {refusal ? <Alert tone="error">{intl.formatMessage({ id: `app.signIn.oidc.error.${refusal}` })}</Alert> : null}
        {provider ? (
          <div className="signin-oidc">
            <a className="btn btn-primary btn-md signin-submit" href={provider.start_url}>
              <FormattedMessage id="app.signIn.oidc.button" values={{ name: provider.name }} />
            </a>
            <p className="signin-or">
              <FormattedMessage id="app.signIn.oidc.or" />
            </p>
          </div>
        ) : null}
        <form className="signin-form" onSubmit={(event) => void submit(event)} noValidate>
          <TextField
            ref={field}
            label={intl.formatMessage({ id: 'app.signIn.keyLabel' })}
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={intl.formatMessage({ id: 'app.signIn.keyPlaceholder' })}
            value={token}
            onChange={(event) => setToken(event.target.value)}
            error={check.error}
            required
          />
          <Button type="submit" variant="primary" busy={check.busy} className="signin-submit">
            <FormattedMessage id={check.busy ? 'app.signIn.checking' : 'app.signIn.submit'} />
          </Button>
        </form>
        <section className="signin-help" aria-labelledby="signin-help-title">
          <h2 id="signin-help-title">
            <FormattedMessage id="app.signIn.help.title" />
          </h2>
          <ul>
            <li>
              <FormattedMessage id="app.signIn.help.link" values={{ code }} />
            </li>
            <li>
              <FormattedMessage id="app.signIn.help.adminKey" values={{ code }} />
            </li>
            <li>
              <FormattedMessage id="app.signIn.help.superAdmin" />
            </li>
            <li>
              <FormattedMessage id="app.signIn.help.moreKeys" />
            </li>
          </ul>
        </section>
      </div>
    </main>
  );
}
