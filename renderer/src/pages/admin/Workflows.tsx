import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ServiceError } from '../../../../shared/errors.js';
import { DatasetPicker } from '../chat/DatasetPicker.js';
import type { Workflow } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { CheckIcon, PlusIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { toast } from '../../ui/toast.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';

/** Workflows of the organization: prepared chat setups (a system prompt, a model, datasets) everyone can pick; admins create and edit them. */
export function Workflows() {
  const workflows = useLoader(() => client.call('workflows.list', { include_inactive: true }));
  const models = useLoader(() => client.call('models.list', {}));
  const datasets = useLoader(() => client.call('datasets.list', { limit: 200 }));
  const modelList = models.state.status === 'ready' ? models.state.data.data : [];
  const datasetList = datasets.state.status === 'ready' ? datasets.state.data.data : [];
  const modelNames = new Map(modelList.map((m) => [m.id, m.name]));
  return (
    <>
      <Section title="New workflow" description="A name people pick in chat, with the instructions the model gets before their messages.">
        <WorkflowForm models={modelList} datasets={datasetList} onSaved={workflows.reload} />
      </Section>
      <Section title="Workflows" description="Active workflows are offered to everyone in the organization; inactive ones are kept for later.">
        <Loadable state={workflows.state} reload={workflows.reload} loading="Loading workflows…" failed="The workflows could not be loaded">
          {(list) => <WorkflowTable workflows={list.data} models={modelList} datasets={datasetList} modelNames={modelNames} onChanged={workflows.reload} />}
        </Loadable>
      </Section>
    </>
  );
}

type Named = { id: string; name: string };

/** Field errors the service names (`errors[].path`) that this form can show under a field. */
function placeErrors(error: unknown): { name?: string; prompt?: string } | null {
  if (!(error instanceof ServiceError) || !error.errors) return null;
  const name = error.errors.find((e) => e.path === 'name');
  const prompt = error.errors.find((e) => e.path === 'system_prompt');
  if (!name && !prompt) return null;
  return { ...(name ? { name: `The name ${name.message}.` } : {}), ...(prompt ? { prompt: `The prompt ${prompt.message}.` } : {}) };
}

/**
 * Creates a workflow, or edits one (`workflow` given): name, description, model, system prompt,
 * datasets and agent mode. A refusal of the service is shown under the field it names.
 */
function WorkflowForm({
  workflow,
  models,
  datasets,
  onSaved,
  onCancel,
}: {
  workflow?: Workflow | undefined;
  models: Named[];
  datasets: Named[];
  onSaved: () => void;
  onCancel?: (() => void) | undefined;
}) {
  const promptId = useId();
  const agentId = useId();
  const editing = workflow !== undefined;
  const [datasetIds, setDatasetIds] = useState<string[]>(workflow?.dataset_ids ?? []);
  const [agentic, setAgentic] = useState(workflow?.agentic ?? false);
  const [name, setName] = useState(workflow?.name ?? '');
  const [description, setDescription] = useState(workflow?.description ?? '');
  const [prompt, setPrompt] = useState(workflow?.system_prompt ?? '');
  const [model, setModel] = useState(workflow?.model_endpoint_override ?? '');
  const [missing, setMissing] = useState<{ name?: string; prompt?: string }>({});
  const nameRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Editing opens the form above the table: its first field takes the focus, and the view.
    if (editing) nameRef.current?.focus();
  }, [editing]);

  const save = useAction(async () => {
    const fields = {
      name: name.trim(),
      system_prompt: prompt,
      description: description.trim() ? description.trim() : null,
      model_endpoint_override: model ? model : null,
      dataset_ids: datasetIds,
      agentic,
    };
    try {
      if (editing) {
        const updated = await client.call('workflows.update', { id: workflow.id, ...fields });
        toast.success(`Workflow “${updated.name}” saved`, updated.active ? 'Chats that pick it from now on use these settings.' : 'It is inactive: activate it to offer it in chat.');
      } else {
        const created = await client.call('workflows.create', fields);
        setDatasetIds([]);
        setAgentic(false);
        setName('');
        setDescription('');
        setPrompt('');
        setModel('');
        toast.success(`Workflow “${created.name}” created`, 'It is active: everyone can pick it in chat.');
      }
    } catch (error) {
      const placed = placeErrors(error);
      if (placed) {
        setMissing(placed);
        return;
      }
      throw error;
    }
    onSaved();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = { ...(name.trim() ? {} : { name: 'Give the workflow a name.' }), ...(prompt.trim() ? {} : { prompt: 'Write the instructions the model gets.' }) };
    setMissing(problems);
    if (problems.name || problems.prompt) return;
    void save.run();
  }

  // A model that is gone still shows, by its id, rather than silently becoming dynamic routing.
  const modelOptions = model && !models.some((m) => m.id === model) ? [...models, { id: model, name: model }] : models;

  return (
    <form className={editing ? 'stack-form model-form workflow-edit' : 'stack-form'} aria-label={editing ? `Edit ${workflow.name}` : 'New workflow'} onSubmit={submit} noValidate>
      {editing ? <h3 className="model-form-title">Edit “{workflow.name}”</h3> : null}
      <div className="form-grid">
        <TextField ref={nameRef} label="Name" autoComplete="off" value={name} maxLength={120} onChange={(event) => {
            setName(event.target.value);
            setMissing(({ name: _fixed, ...rest }) => rest);
          }}
          error={missing.name}
        />
        <TextField label="Description" autoComplete="off" value={description} onChange={(event) => setDescription(event.target.value)} hint="Optional; shown next to the name." />
        <SelectField label="Answered by" value={model} onChange={(event) => setModel(event.target.value)} hint="Dynamic routing picks a model per message.">
          <option value="">Dynamic routing</option>
          {modelOptions.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={promptId}>
          System prompt
        </label>
        <textarea
          id={promptId}
          className="input workflow-prompt"
          rows={editing ? 6 : 4}
          value={prompt}
          placeholder="For example: You are a careful reviewer of contracts. Quote the clause you rely on."
          aria-invalid={missing.prompt ? true : undefined}
          aria-describedby={missing.prompt ? `${promptId}-error` : undefined}
          onChange={(event) => {
            setPrompt(event.target.value);
            setMissing(({ prompt: _fixed, ...rest }) => rest);
          }}
        />
        {missing.prompt ? (
          <p className="field-error" id={`${promptId}-error`} role="alert">
            {missing.prompt}
          </p>
        ) : null}
      </div>
      <div className="workflow-options">
        <DatasetPicker datasets={datasets} value={datasetIds} onChange={setDatasetIds} disabled={false} legend="Datasets a chat with this workflow draws on" />
        <label className="checkbox-row" htmlFor={agentId}>
          <input id={agentId} type="checkbox" checked={agentic} onChange={(event) => setAgentic(event.target.checked)} />
          <span>
            Agent mode <span className="muted">— answers plan, search and read the datasets first</span>
          </span>
        </label>
      </div>
      {save.error ? <Alert tone="error">{save.error}</Alert> : null}
      <div className="model-form-actions workflow-form-actions">
        {onCancel ? (
          <Button onClick={onCancel} disabled={save.busy}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" variant="primary" icon={editing ? <CheckIcon /> : <PlusIcon />} busy={save.busy}>
          {editing ? 'Save changes' : 'Create workflow'}
        </Button>
      </div>
    </form>
  );
}

function WorkflowTable({
  workflows,
  models,
  datasets,
  modelNames,
  onChanged,
}: {
  workflows: Workflow[];
  models: Named[];
  datasets: Named[];
  modelNames: Map<string, string>;
  onChanged: () => void;
}) {
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const [editing, setEditing] = useState<Workflow | null>(null);
  const toggle = useAction(async (w: Workflow) => {
    const updated = await client.call('workflows.update', { id: w.id, active: !w.active });
    toast.success(`“${updated.name}” ${updated.active ? 'activated' : 'deactivated'}`);
    onChanged();
  });
  const remove = useAction(async (w: Workflow) => {
    await client.call('workflows.delete', { id: w.id });
    setDeleting(null);
    toast.success(`Workflow “${w.name}” deleted`);
    onChanged();
  });

  return (
    <>
      {toggle.error ? <Alert tone="error">{toggle.error}</Alert> : null}
      {editing ? (
        <WorkflowForm
          key={editing.id}
          workflow={editing}
          models={models}
          datasets={datasets}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <DataTable
        caption="Workflows"
        rows={workflows}
        rowKey={(w) => w.id}
        empty={<TableEmpty>No workflows yet. Create one above.</TableEmpty>}
        name={{
          header: 'Name',
          wrap: true,
          cell: (w) => (
            <>
              {w.name}
              {w.builtin ? <span className="badge">Built in</span> : null}
              {w.description ? <span className="cell-secondary">{w.description}</span> : null}
            </>
          ),
        }}
        columns={[
          {
            id: 'model',
            header: 'Answered by',
            narrow: 'under',
            cell: (w) => (w.model_endpoint_override ? (modelNames.get(w.model_endpoint_override) ?? w.model_endpoint_override) : <span className="muted">Dynamic routing</span>),
          },
          { id: 'status', header: 'Status', cell: (w) => (w.active ? <span className="badge badge-success">Active</span> : <span className="badge">Inactive</span>) },
        ]}
        actions={(w) =>
          w.builtin ? (
            <span className="muted nowrap">
              Set by <a href="#/admin/config">simple_chat</a>
            </span>
          ) : (
            <>
              <Button size="sm" variant="ghost" onClick={() => setEditing(w)} aria-label={`Edit ${w.name}`}>
                Edit
              </Button>
              <Button size="sm" onClick={() => void toggle.run(w)} disabled={toggle.busy} aria-label={`${w.active ? 'Deactivate' : 'Activate'} ${w.name}`}>
                {w.active ? 'Deactivate' : 'Activate'}
              </Button>
              <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={() => setDeleting(w)} aria-label={`Delete ${w.name}`}>
                Delete
              </Button>
            </>
          )
        }
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete workflow"
        tone="danger"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => deleting && void remove.run(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>People can no longer pick it. Chats that used it keep their messages and go on without its instructions. To keep it for later, deactivate it instead.</p>
      </ConfirmDialog>
    </>
  );
}
