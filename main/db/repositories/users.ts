import type { z } from 'zod';
import type { updateUser } from '../../../shared/operations/admin.js';
import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { User } from '../../../shared/operations/identity.js';
import type { SqlDb as Db } from '../sql.js';

/** A user as stored: the API's fields, with their organization and workspace as ids and names. */
export type UserRecord = Pick<z.output<typeof User>, 'id' | 'email' | 'name' | 'role'> & {
  organization_id: string;
  organization_name: string;
  workspace_id: string;
  workspace_name: string;
  disabled_at: string | null;
  created_at: string;
};

/** What `admin.users.update` may change. */
export type UserPatch = Pick<ParsedInputOf<typeof updateUser>, 'name' | 'role' | 'disabled'>;

const SELECT_USER = `
  SELECT u.id, u.email, u.name, u.role, u.organization_id, o.name AS organization_name,
         u.workspace_id, w.name AS workspace_name, u.disabled_at, u.created_at
  FROM users u
  JOIN organizations o ON o.id = u.organization_id
  JOIN workspaces w ON w.id = u.workspace_id`;

export function createUsersRepo(db: Db) {
  const byId = db.prepare<[string], UserRecord>(`${SELECT_USER} WHERE u.id = ?`);
  const byEmail = db.prepare<[string], UserRecord>(`${SELECT_USER} WHERE u.email = ?`);
  const byOrganization = db.prepare<[string], UserRecord>(`${SELECT_USER} WHERE u.organization_id = ? ORDER BY u.created_at, u.id`);
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users');
  const insertOrg = db.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)');
  const insertWorkspace = db.prepare('INSERT INTO workspaces (id, organization_id, name, created_at) VALUES (?, ?, ?, ?)');
  const insertUser = db.prepare(
    `INSERT INTO users (id, organization_id, workspace_id, email, name, role, created_at, updated_at)
     VALUES (@id, @organization_id, @workspace_id, @email, @name, @role, @now, @now)`,
  );
  const update = db.prepare(
    `UPDATE users SET name = coalesce(@name, name), role = coalesce(@role, role),
       disabled_at = CASE WHEN @disabled IS NULL THEN disabled_at WHEN @disabled = 1 THEN coalesce(disabled_at, @now) ELSE NULL END,
       updated_at = @now
     WHERE id = @id`,
  );

  const reads = {
    get: (id: string) => byId.get(id),
    getByEmail: (email: string) => byEmail.get(email),
    listByOrganization: (organizationId: string) => byOrganization.all(organizationId),
    count: () => count.get()?.n ?? 0,
  };
  const writes = {
    createOrganization(org: { id: string; name: string; workspace_id: string; workspace_name: string; now: string }) {
      insertOrg.run(org.id, org.name, org.now);
      insertWorkspace.run(org.workspace_id, org.id, org.workspace_name, org.now);
    },
    insert(user: Pick<UserRecord, 'id' | 'organization_id' | 'workspace_id' | 'email' | 'name' | 'role'> & { now: string }) {
      insertUser.run(user);
    },
    update(id: string, patch: UserPatch, now: string): boolean {
      const disabled = patch.disabled === undefined ? null : patch.disabled ? 1 : 0;
      return update.run({ id, name: patch.name ?? null, role: patch.role ?? null, disabled, now }).changes > 0;
    },
  };
  return { ...reads, ...writes };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
