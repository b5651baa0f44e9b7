import { issueApiKey } from '../../main/core/platform/auth/api-keys.js';
import { newId } from '../../main/core/platform/ids.js';
import type { Core } from '../../main/boot.js';

type Api = (path: string, init?: RequestInit & { token?: string | null }) => Promise<Response>;

export interface Person {
  id: string;
  key: string;
  organization_id: string;
  workspace_id: string;
}

/** JSON in and out as `token`: status and parsed body (null for an empty one). */
export async function call<T = Record<string, unknown>>(api: Api, path: string, init: { method?: string; body?: unknown; token?: string | null } = {}) {
  const res = await api(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    ...(init.token === undefined ? {} : { token: init.token }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

let counter = 0;

/** A user of the owner's organization with `role`, created through the API, with their first key. */
export async function person(api: Api, role: 'member' | 'admin' | 'super_admin', name: string = role): Promise<Person> {
  const email = `${name}-${++counter}-${Date.now()}@example.com`;
  const res = await call<{ user: { id: string; organization: { id: string } }; api_key: { key: string } }>(api, '/admin/users', { body: { email, name, role } });
  if (res.status !== 201) throw new Error(`could not create ${role}: ${JSON.stringify(res.body)}`);
  const me = await call<{ workspace: { id: string } }>(api, '/me', { token: res.body.api_key.key });
  return { id: res.body.user.id, key: res.body.api_key.key, organization_id: res.body.user.organization.id, workspace_id: me.body.workspace.id };
}

/** A trial user onboarded with a user token (`ut_…`). */
export async function trial(api: Api, options: { quota?: number; expires_in?: number } = {}): Promise<Person & { expires_at: string }> {
  const res = await call<{ token: string; expires_at: string; user: { id: string; organization: { id: string } } }>(api, '/admin/user-tokens', {
    body: { expires_in: options.expires_in ?? 3600, ...(options.quota ? { quota: options.quota } : {}) },
  });
  if (res.status !== 201) throw new Error(`could not issue a user token: ${JSON.stringify(res.body)}`);
  const me = await call<{ workspace: { id: string } }>(api, '/me', { token: res.body.token });
  return { id: res.body.user.id, key: res.body.token, organization_id: res.body.user.organization.id, workspace_id: me.body.workspace.id, expires_at: res.body.expires_at };
}

/**
 * A second organization with its own super admin, written straight into the database: no API
 * creates organizations yet, but the data model allows them and everything must stay apart.
 */
export function secondOrganization(core: Core, name = 'Other Org'): Person {
  const now = new Date().toISOString();
  const org = { id: newId('org'), name, workspace_id: newId('wsp'), workspace_name: 'Other workspace', now };
  core.repos.users.createOrganization(org);
  const id = newId('usr');
  core.repos.users.insert({ id, organization_id: org.id, workspace_id: org.workspace_id, email: `boss-${id}@other.example`, name: 'Other boss', role: 'super_admin', now });
  const { key } = issueApiKey(core.repos, core.runtime.credentials, id, 'first', now);
  return { id, key, organization_id: org.id, workspace_id: org.workspace_id };
}
