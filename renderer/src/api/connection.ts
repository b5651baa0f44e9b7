import { ServiceError } from '../../../shared/errors.js';
import { createBridgeTransport, findBridge } from './bridge-transport.js';
import { createClient, type Client } from './client.js';
import { createHttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

/** Where the browser keeps the API key it signed in with; sign-out removes it. */
const TOKEN_KEY = 'parley.apiKey';

/**
 * The app's way to the service. On the desktop the preload bridge acts as the signed-in desktop
 * profile, so there is nothing to sign in with; in a browser the user signs in with an API key.
 */
export type Connection = DesktopConnection | BrowserConnection;

export interface DesktopConnection {
  kind: 'desktop';
  client: Client;
}

export interface BrowserConnection {
  kind: 'browser';
  /** Calls with the stored key. */
  client: Client;
  apiBase: string;
  storedToken(): string | null;
  storeToken(token: string): void;
  clearToken(): void;
  /** A client for one candidate key, to check it before storing it. */
  clientFor(token: string): Client;
  /** Called when a call made with the key still stored is refused as unauthenticated (key revoked meanwhile). */
  onUnauthenticated(listener: () => void): () => void;
}

function readStorage(storage: Storage | null): string | null {
  try {
    return storage?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Picks the transport once, at start: the bridge when the preload exposed it, fetch otherwise. */
export function connect(scope: Window = window): Connection {
  const bridge = findBridge(scope);
  if (bridge) return { kind: 'desktop', client: createClient(createBridgeTransport(bridge)) };

  const apiBase = new URL('/api', scope.location.href).href;
  let storage: Storage | null = null;
  try {
    storage = scope.localStorage;
  } catch {
    // Storage can be disabled; the session then lasts as long as the page.
  }
  let memoryToken: string | null = readStorage(storage);
  const listeners = new Set<() => void>();

  const http = createHttpTransport({ baseUrl: apiBase, token: () => memoryToken });
  const watched: Transport = {
    async invoke(operation, input) {
      const sentWith = memoryToken;
      try {
        return await http.invoke(operation, input);
      } catch (error) {
        // Only a refusal of the key still in use ends the session: a call sent with a key that a
        // sign-in link has since replaced (and revoked) is refused too, and must not sign the new key out.
        if (error instanceof ServiceError && error.code === 'unauthenticated' && sentWith && sentWith === memoryToken) for (const listener of listeners) listener();
        throw error;
      }
    },
    stream: (operation, input, options, onSignal) => http.stream(operation, input, options, onSignal),
    uploadPart: (url, bytes) => http.uploadPart(url, bytes),
  };

  return {
    kind: 'browser',
    client: createClient(watched),
    apiBase,
    storedToken: () => memoryToken,
    storeToken(token) {
      memoryToken = token;
      try {
        storage?.setItem(TOKEN_KEY, token);
      } catch {
        // Kept in memory only.
      }
    },
    clearToken() {
      memoryToken = null;
      try {
        storage?.removeItem(TOKEN_KEY);
      } catch {
        // Nothing stored.
      }
    },
    clientFor: (token) => createClient(createHttpTransport({ baseUrl: apiBase, token: () => token })),
    onUnauthenticated(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
