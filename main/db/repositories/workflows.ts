import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { Workflow, updateWorkflow } from '../../../shared/operations/workflows.js';
import type { SqlDb as Db } from '../sql.js';

/** A stored workflow: the API's fields but its datasets (`datasetIds`) and `builtin`, plus its organization and author. */
export type WorkflowRecord = Pick<Workflow, 'id' | 'name' | 'description' | 'system_prompt' | 'model_endpoint_override' | 'agentic' | 'active' | 'created_at' | 'updated_at'> & {
  seq: number;
  organization_id: string;
  created_by: string | null;
};

/** The row as SQLite holds it: the flags as 0/1. */
type WorkflowRow = Omit<WorkflowRecord, 'agentic' | 'active'> & { agentic: number; active: number };

/** What a workflow is made of, as stored (its datasets apart). */
export type WorkflowFields = Pick<WorkflowRecord, 'name' | 'description' | 'system_prompt' | 'model_endpoint_override' | 'agentic' | 'active'>;

/** What `workflows.update` may change (a description already made null when empty). */
export type WorkflowPatch = Omit<ParsedInputOf<typeof updateWorkflow>, 'id' | 'description'> & { description?: string | null | undefined };

const decode = (row: WorkflowRow): WorkflowRecord => ({ ...row, agentic: row.agentic === 1, active: row.active === 1 });

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

  const one = (row: WorkflowRow | undefined) => row && decode(row);
  const reads = {
    get: (id: string) => one(byId.get(id)),
    getByName: (organizationId: string, name: string) => one(byName.get(organizationId, name)),
    list: (organizationId: string) => inOrg.all(organizationId).map(decode),
    datasetIds: (id: string) => datasetsOf.all(id).map((r) => r.dataset_id),
  };
  const writes = {
    insert(row: WorkflowFields & { id: string; organization_id: string; created_by: string; dataset_ids: string[]; now: string }) {
      db.transaction(() => {
        insert.run({ ...row, agentic: asSql(row.agentic), active: asSql(row.active) });
        setDatasets(row.id, row.dataset_ids);
      })();
    },
    update(id: string, patch: WorkflowPatch, now: string) {
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
  return { ...reads, ...writes };
}

export type WorkflowsRepo = ReturnType<typeof createWorkflowsRepo>;
