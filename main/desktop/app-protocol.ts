import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { contentType } from 'mime-types';
import { APP_HOST, APP_SCHEME, CONTENT_SECURITY_POLICY } from './window.js';

/**
 * Registered before `app.whenReady`. `standard` gives `app://parley` a real origin (relative URLs,
 * CSP 'self', storage); `secure` makes it a secure context like https; `supportFetchAPI` lets the
 * page fetch its own assets. Deliberately not `bypassCSP`.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

const NO_BODY = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The `app://` handler (for `protocol.handle`): serves the built renderer from `rootDir`, never a
 * byte outside it. A path without an extension that is not a file gets `index.html`, so a reload on
 * any client-side route still opens the app.
 */
export function createAppProtocolHandler(rootDir: string, policy: string | (() => string) = CONTENT_SECURITY_POLICY): (request: Request) => Promise<Response> {
  const root = resolve(rootDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers: NO_BODY });
    const url = new URL(request.url);
    if (url.host.toLowerCase() !== APP_HOST) return new Response('Not found', { status: 404, headers: NO_BODY });
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return new Response('Bad request', { status: 400, headers: NO_BODY });
    }
    const index = join(root, 'index.html');
    // resolve() collapses any `..` left after decoding (%2e%2e, %2f): the result must stay in root.
    let file = path === '/' ? index : resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return new Response('Not found', { status: 404, headers: NO_BODY });
    if (!(await isFile(file))) {
      if (extname(file) !== '' && file !== index) return new Response('Not found', { status: 404, headers: NO_BODY });
      file = index;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      // Only index.html can be missing here: the renderer has not been built.
      return new Response('The Parley renderer is not built; run npm run build.', { status: 404, headers: NO_BODY });
    }
    const headers = {
      'Content-Type': contentType(extname(file)) || 'application/octet-stream',
      // webRequest hooks do not run for custom schemes, so the policy travels with the response.
      // Asked per response when a function: the local API's origin may change while the app runs.
      'Content-Security-Policy': typeof policy === 'function' ? policy() : policy,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
