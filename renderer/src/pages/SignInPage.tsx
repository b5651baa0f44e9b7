import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSession } from '../app/store.js';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';
import { TextField } from '../ui/Field.js';
import { Logo } from '../ui/icons.js';
import { useAction } from '../ui/useAction.js';

/** Browser only: the app acts as whoever owns the API key pasted here. */
export function SignInPage({ notice }: { notice: string | null }) {
  const signIn = useSession((s) => s.signIn);
  const [token, setToken] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const check = useAction(async () => {
    const problem = await signIn(token);
    // On success this page is gone; only a failure leaves something to show.
    if (problem) {
      field.current?.focus();
      throw new Error(problem);
    }
  });

  useEffect(() => {
    document.title = 'Sign in · Parley';
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
        <h1>Sign in to Parley</h1>
        <p className="signin-lead">Paste an API key. Parley will act as the person the key belongs to, in this browser, until you sign out.</p>
        {notice ? <Alert tone="warning">{notice}</Alert> : null}
        <form className="signin-form" onSubmit={(event) => void submit(event)} noValidate>
          <TextField
            ref={field}
            label="API key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="pk_…"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            error={check.error}
            required
          />
          <Button type="submit" variant="primary" busy={check.busy} className="signin-submit">
            {check.busy ? 'Checking key…' : 'Sign in'}
          </Button>
        </form>
        <section className="signin-help" aria-labelledby="signin-help-title">
          <h2 id="signin-help-title">Where do I get a key?</h2>
          <ul>
            <li>
              The owner can sign in with the link Parley prints when it starts (<code>Sign in: http://127.0.0.1:…</code>); <code>npm start</code> opens it
              for you. Each link works once, for 10 minutes.
            </li>
            <li>
              Or with the key that was in <code>PARLEY_ADMIN_API_KEY</code> when this server first started.
            </li>
            <li>A super admin can add you under Admin → Users, which creates your first key.</li>
            <li>Once signed in, you can create more keys under Settings → API keys.</li>
          </ul>
        </section>
      </div>
    </main>
  );
}
