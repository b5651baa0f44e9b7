import type { Db } from '../connection.js';

export interface WorkflowRow {
  seq: number;
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  system_prompt: string;
  model_endpoint_override: string | null;
  agentic: number;
  active: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkflowFields {
  name: string;
  description: string | null;
  system_prompt: string;
  model_endpoint_override: string | null;
  agentic: boolean;
  active: boolean;
}

const COLUMNS = ['name', 'description', 'system_prompt', 'model_endpoint_override', 'agentic', 'active'] as const;
const asSql = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

export function createWorkflowsRepo(db: Db) {
  const byId = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE id = ?');
  const inOrg = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE organization_id = ? ORDER BY seq');
  const byName = db.prepare<[string, string], WorkflowRow>('SELECT * FROM workflows WHERE organization_id = ? AND name = ?');
  const insert = db.prepare(
    `INSERT INTO workflows (id, organization_id, name, description, system_prompt, model_endpoint_override, agentic, active, created_by, created_at, updated_at)
     VALUES (@id, @organization_id, @name, @description, @system_prompt, @model_endpoint_override, @agentic, @active, @created_by, @now, @now)`,
  );
  const datasetsOf = db.prepare<[string], { dataset_id: string }>('SELECT dataset_id FROM workflow_datasets WHERE workflow_id = ? ORDER BY position');
  const clearDatasets = db.prepare('DELETE FROM workflow_datasets WHERE workflow_id = ?');
  const addDataset = db.prepare('INSERT OR IGNORE INTO workflow_datasets (workflow_id, dataset_id, position) VALUES (?, ?, ?)');
  const remove = db.prepare('DELETE FROM workflows WHERE id = ?');

  const setDatasets = (id: string, ids: string[]) => {
    clearDatasets.run(id);
    ids.forEach((datasetId, i) => addDataset.run(id, datasetId, i));
  };

  return {
    get: (id: string) => byId.get(id),
    getByName: (organizationId: string, name: string) => byName.get(organizationId, name),
    list: (organizationId: string) => inOrg.all(organizationId),
    datasetIds: (id: string) => datasetsOf.all(id).map((r) => r.dataset_id),
    insert(row: WorkflowFields & { id: string; organization_id: string; created_by: string; dataset_ids: string[]; now: string }) {
      db.transaction(() => {
        insert.run({ ...row, agentic: asSql(row.agentic), active: asSql(row.active) });
        setDatasets(row.id, row.dataset_ids);
      })();
    },
    update(id: string, patch: { [K in keyof WorkflowFields]?: WorkflowFields[K] | undefined } & { dataset_ids?: string[] | undefined }, now: string) {
      db.transaction(() => {
        const sets = ['updated_at = @now'];
        const params: Record<string, unknown> = { id, now };
        for (const key of COLUMNS) {
          if (patch[key] === undefined) continue;
          sets.push(`${key} = @${key}`);
          params[key] = asSql(patch[key]);
        }
        db.prepare(`UPDATE workflows SET ${sets.join(', ')} WHERE id = @id`).run(params);
        if (patch.dataset_ids) setDatasets(id, patch.dataset_ids);
      })();
    },
    delete: (id: string) => remove.run(id).changes > 0,
  };
}

export type WorkflowsRepo = ReturnType<typeof createWorkflowsRepo>;
