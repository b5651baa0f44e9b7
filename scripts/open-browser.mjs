// Opens a URL in the user's default browser, where there is one: `open` on macOS, `start` on
// Windows, xdg-open on Linux and the BSDs when a desktop session runs. Never fails: the caller has
// printed the URL anyway.
import { spawn as nodeSpawn } from 'node:child_process';

/**
 * The command that opens `url` here, or null where there is no default browser to open: no
 * desktop session on Linux (xdg-open would fall back to a text browser in this very terminal),
 * or `BROWSER=none` (the usual way to say "do not open one").
 */
export function openerFor(url, platform = process.platform, env = process.env) {
  if (env.BROWSER === 'none') return null;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start`'s first quoted argument is a window title; the empty one keeps the URL from being taken for it.
  // Verbatim, since Node would quote the "" otherwise; cmd's own escape for & is ^.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', '/b', url.replace(/&/g, '^&')], verbatim: true };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return { command: 'xdg-open', args: [url] };
}

/**
 * Starts the opener detached (it may outlive us, and its output is none of ours). Answers whether
 * an opener was started; a missing one (no xdg-open installed) is quietly no browser.
 */
export function openInBrowser(url, { platform = process.platform, env = process.env, spawn = nodeSpawn } = {}) {
  const opener = openerFor(url, platform, env);
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true, windowsHide: true, windowsVerbatimArguments: opener.verbatim === true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** The link served mode prints for the owner: `Sign in: http://127.0.0.1:<port>/#/sign-in/<code>`. */
export const SIGN_IN_LINE = /^Sign in: (http:\/\/\S+)\s*$/m;
