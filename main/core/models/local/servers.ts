/**
 * Running Ollama and LM Studio servers on this machine (their default loopback ports, or the URLs
 * of `[local_models]`), offered for registration as OpenAI-compatible models — never added silently.
 */
export interface FoundServer {
  source: 'ollama' | 'lm_studio';
  name: string;
  /** The OpenAI-compatible base URL to register. */
  endpoint_url: string;
  models: string[];
}

/**
 * Only a server that accepted the connection and then hangs waits this long (a free port refuses at
 * once). Generous, because the wait also counts time Parley's event loop spent elsewhere: the first
 * scan that finds a GGUF file loads node-llama-cpp, whose import and native binary block the loop
 * for 150–300 ms here and more on a slower machine. At 800 ms a running Ollama once went unseen.
 */
const PROBE_TIMEOUT_MS = 3_000;

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${res.status}`);
  return res.json();
}

const base = (url: string) => url.replace(/\/+$/, '');

async function ollama(url: string): Promise<FoundServer | null> {
  try {
    // Ollama's own API names it; its OpenAI-compatible API lives under /v1.
    const tags = (await getJson(`${base(url)}/api/tags`)) as { models?: { name?: unknown }[] };
    if (!Array.isArray(tags.models)) return null;
    const models = tags.models.map((m) => m.name).filter((n): n is string => typeof n === 'string');
    return { source: 'ollama', name: 'Ollama', endpoint_url: `${base(url)}/v1`, models };
  } catch {
    return null;
  }
}

async function lmStudio(url: string): Promise<FoundServer | null> {
  try {
    const list = (await getJson(`${base(url)}/v1/models`)) as { data?: { id?: unknown }[] };
    if (!Array.isArray(list.data)) return null;
    const models = list.data.map((m) => m.id).filter((n): n is string => typeof n === 'string');
    return { source: 'lm_studio', name: 'LM Studio', endpoint_url: `${base(url)}/v1`, models };
  } catch {
    return null;
  }
}

export async function findServers(urls: { ollama_url: string; lm_studio_url: string }): Promise<FoundServer[]> {
  const found = await Promise.all([ollama(urls.ollama_url), lmStudio(urls.lm_studio_url)]);
  return found.filter((s): s is FoundServer => s !== null);
}

/** Endpoint URLs compare without a trailing slash. */
export const sameEndpoint = (a: string | null, b: string) => a !== null && base(a) === base(b);
