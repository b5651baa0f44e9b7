import { create } from 'zustand';
import { ServiceError } from '../../../shared/errors.js';
import type { Operations, OutputOf } from '../../../shared/operations/index.js';
import type { BrowserConnection, Connection } from '../api/index.js';
import { getIntl } from '../i18n/intl.js';
import { errorText } from '../ui/error-text.js';
import { onSignInLink, takeSignInCode } from './sign-in-link.js';

export type Me = OutputOf<Operations['identity.me']>;

export type Session =
  | { status: 'starting' }
  /** Browser only: no usable key. `notice` says why when the user did not sign out themselves. */
  | { status: 'signed-out'; notice: string | null }
  | { status: 'signed-in'; me: Me }
  /** The service could not be reached or refused to say who we are for another reason. */
  | { status: 'failed'; error: string };

export interface SessionStore {
  session: Session;
  /** Finds out who we are: the desktop profile, or the key this browser kept. */
  start(): Promise<void>;
  /** Checks a key with `identity.me` and keeps it when it works; answers an error message otherwise. */
  signIn(token: string): Promise<string | null>;
  signOut(notice?: string): void;
  /** Reads `identity.me` again (a trial's calls left change with every answer); keeps what it had when that fails. */
  refresh(): Promise<void>;
}

// The store's texts are worded in the language in use when they are raised (it lives outside React).
const say = (id: 'app.signIn.keyRejected' | 'app.signIn.keyExpired' | 'app.signIn.keyMissing' | 'app.signIn.keySpaces') => getIntl().formatMessage({ id });
/** The name served mode gives the key a sign-in link exchanges its code for (main/core/platform/auth/sign-in-code.ts). */
const SIGN_IN_KEY_NAME = 'Browser sign-in';

/**
 * Exchanges a sign-in link's code for a new API key and keeps that key, as signing in with a
 * pasted one does. The key it replaces, if it was an earlier link's, is revoked, so that opening
 * a link at every start does not pile up keys. Answers why it failed, or null.
 */
async function redeem(connection: BrowserConnection, code: string): Promise<string | null> {
  let key: string;
  try {
    ({ key } = await connection.clientFor('').call('signInCodes.redeem', { code }));
  } catch (error) {
    return errorText(error);
  }
  const previous = connection.storedToken();
  connection.storeToken(key);
  if (previous && previous !== key) {
    const old = connection.clientFor(previous);
    try {
      const { data } = await old.call('apiKeys.list', {});
      const mine = data.find((k) => k.name === SIGN_IN_KEY_NAME && previous.startsWith(k.prefix));
      if (mine) await old.call('apiKeys.delete', { id: mine.id });
    } catch {
      // The old key was revoked already, or belongs to someone else's session: nothing to tidy.
    }
  }
  return null;
}

export function createSessionStore(connection: Connection) {
  const store = create<SessionStore>()((set) => ({
    session: { status: 'starting' },

    async start() {
      set({ session: { status: 'starting' } });
      const code = connection.kind === 'browser' ? takeSignInCode() : null;
      if (connection.kind === 'browser' && code) {
        const problem = await redeem(connection, code);
        if (problem === null) {
          await store.getState().start();
          return;
        }
        // A stale link in a browser that is signed in anyway changes nothing.
        if (!connection.storedToken()) {
          set({ session: { status: 'signed-out', notice: problem } });
          return;
        }
      }
      if (connection.kind === 'browser' && !connection.storedToken()) {
        set({ session: { status: 'signed-out', notice: null } });
        return;
      }
      try {
        const me = await connection.client.call('identity.me', {});
        set({ session: { status: 'signed-in', me } });
      } catch (error) {
        if (connection.kind === 'browser' && error instanceof ServiceError && error.code === 'unauthenticated') {
          connection.clearToken();
          set({ session: { status: 'signed-out', notice: say('app.signIn.keyExpired') } });
          return;
        }
        set({ session: { status: 'failed', error: errorText(error) } });
      }
    },

    async signIn(rawToken) {
      if (connection.kind !== 'browser') return null;
      const token = rawToken.trim();
      if (!token) return say('app.signIn.keyMissing');
      if (/\s/.test(token)) return say('app.signIn.keySpaces');
      try {
        const me = await connection.clientFor(token).call('identity.me', {});
        connection.storeToken(token);
        set({ session: { status: 'signed-in', me } });
        return null;
      } catch (error) {
        if (error instanceof ServiceError && error.code === 'unauthenticated') return say('app.signIn.keyRejected');
        return errorText(error);
      }
    },

    async refresh() {
      if (store.getState().session.status !== 'signed-in') return;
      try {
        const me = await connection.client.call('identity.me', {});
        if (store.getState().session.status === 'signed-in') set({ session: { status: 'signed-in', me } });
      } catch {
        // Unreachable for a moment, or signed out meanwhile (handled by onUnauthenticated): nothing to update.
      }
    },

    signOut(notice) {
      if (connection.kind !== 'browser') return;
      connection.clearToken();
      set({ session: { status: 'signed-out', notice: notice ?? null } });
    },
  }));

  if (connection.kind === 'browser') {
    onSignInLink(() => void store.getState().start());
    // A key revoked while in use (here or elsewhere) ends the session instead of failing every page.
    connection.onUnauthenticated(() => {
      if (store.getState().session.status === 'signed-in') store.getState().signOut(say('app.signIn.keyExpired'));
    });
  }
  return store;
}
