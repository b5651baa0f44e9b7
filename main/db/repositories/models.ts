import { Capabilities } from '../../../shared/operations/models-schema.js';
import type { z } from 'zod';
import type { Model, ModelOverride } from '../../../shared/operations/models.js';
import type { SqlDb as Db } from '../sql.js';
import { jsonColumn } from './decode.js';

/** A registered model as stored: the API's fields (its capabilities decoded), its sealed key and organization. */
export type ModelRecord = Pick<Model, 'id' | 'name' | 'model' | 'endpoint_url' | 'base_model' | 'capabilities' | 'created_at'> & {
  kind: Exclude<Model['kind'], 'builtin'>;
  provider: 'openai_compatible' | 'anthropic' | 'llama_cpp';
  api_key_secret: Buffer | null;
  /** Null only for rows of an organization since deleted (migration 150 gave every model one). */
  organization_id: string | null;
};

/** The row as SQLite holds it: capabilities as JSON text. */
type ModelRow = Omit<ModelRecord, 'capabilities'> & { capabilities: string };

/** A workspace's endpoint for a model, as stored: the API's fields, its sealed key in place of `has_api_key`. */
export type OverrideRecord = Omit<z.output<typeof ModelOverride>, 'has_api_key'> & { api_key_secret: Buffer | null };

// The router decides on capabilities: an unreadable value stops the reader (typed), it is not guessed.
const decode = (row: ModelRow): ModelRecord => ({ ...row, capabilities: jsonColumn(Capabilities, row.capabilities, { table: 'models', column: 'capabilities', id: row.id }) });

export function createModelsRepo(db: Db) {
  const ofOrganization = db.prepare<[string], ModelRow>('SELECT * FROM models WHERE organization_id = ? ORDER BY created_at, id');
  const byId = db.prepare<[string], ModelRow>('SELECT * FROM models WHERE id = ?');
  const localPaths = db.prepare<[], { model: string }>("SELECT model FROM models WHERE provider = 'llama_cpp'");
  const insert = db.prepare(
    `INSERT INTO models (id, organization_id, name, kind, provider, model, endpoint_url, base_model, capabilities, api_key_secret, created_by, created_at)
     VALUES (@id, @organization_id, @name, @kind, @provider, @model, @endpoint_url, @base_model, @capabilities, @api_key_secret, @created_by, @created_at)`,
  );
  const remove = db.prepare('DELETE FROM models WHERE id = ?');
  const update = db.prepare(
    `UPDATE models SET name = @name, endpoint_url = @endpoint_url, api_key_secret = @api_key_secret, model = @model, capabilities = @capabilities WHERE id = @id`,
  );
  const removeOverridesOf = db.prepare('DELETE FROM model_overrides WHERE model_id = ?');

  const overridesOf = db.prepare<[string], OverrideRecord>('SELECT * FROM model_overrides WHERE workspace_id = ? ORDER BY created_at, id');
  const overrideById = db.prepare<[string], OverrideRecord>('SELECT * FROM model_overrides WHERE id = ?');
  const overrideFor = db.prepare<[string, string], OverrideRecord>('SELECT * FROM model_overrides WHERE workspace_id = ? AND model_id = ?');
  const upsertOverride = db.prepare(
    `INSERT INTO model_overrides (id, workspace_id, model_id, endpoint_url, api_key_secret, created_at, updated_at)
     VALUES (@id, @workspace_id, @model_id, @endpoint_url, @api_key_secret, @now, @now)
     ON CONFLICT (workspace_id, model_id) DO UPDATE SET endpoint_url = excluded.endpoint_url,
       api_key_secret = CASE WHEN @keep_key = 1 THEN coalesce(excluded.api_key_secret, model_overrides.api_key_secret) ELSE excluded.api_key_secret END,
       updated_at = excluded.updated_at`,
  );
  const removeOverride = db.prepare('DELETE FROM model_overrides WHERE workspace_id = ? AND model_id = ?');

  const reads = {
    /** The organization's registered models, oldest first. */
    list: (organizationId: string) => ofOrganization.all(organizationId).map(decode),
    get: (id: string): ModelRecord | undefined => {
      const row = byId.get(id);
      return row && decode(row);
    },
    /** The files registered as local models by any organization: they are this machine's, listed once. */
    localPaths: () => localPaths.all().map((r) => r.model),
    listOverrides: (workspaceId: string) => overridesOf.all(workspaceId),
    getOverride: (id: string) => overrideById.get(id),
    overrideFor: (workspaceId: string, modelId: string) => overrideFor.get(workspaceId, modelId),
  };
  const writes = {
    insert: (row: Omit<ModelRecord, 'organization_id'> & { organization_id: string; created_by: string }) =>
      insert.run({ ...row, capabilities: JSON.stringify(row.capabilities) }),
    update: (row: Pick<ModelRecord, 'id' | 'name' | 'endpoint_url' | 'model' | 'capabilities' | 'api_key_secret'>) =>
      update.run({ ...row, capabilities: JSON.stringify(row.capabilities) }).changes > 0,
    /** Removes the model and every workspace override of it, together. */
    delete: (id: string) => db.transaction(() => (removeOverridesOf.run(id), remove.run(id).changes > 0))(),
    /** Sets an override; `keep_key`: a missing key keeps the stored one (same origin), else it is dropped. */
    putOverride: (row: { id: string; workspace_id: string; model_id: string; endpoint_url: string; api_key_secret: Buffer | null; keep_key: boolean; now: string }) => {
      upsertOverride.run({ ...row, keep_key: row.keep_key ? 1 : 0 });
      return overrideFor.get(row.workspace_id, row.model_id);
    },
    deleteOverride: (workspaceId: string, modelId: string) => removeOverride.run(workspaceId, modelId).changes > 0,
  };
  return { ...reads, ...writes };
}

export type ModelsRepo = ReturnType<typeof createModelsRepo>;
