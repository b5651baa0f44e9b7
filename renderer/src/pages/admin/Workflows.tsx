import { useId, useState, type FormEvent } from 'react';
import { DatasetPicker } from '../chat/DatasetPicker.js';
import type { Workflow } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { PlusIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { toast } from '../../ui/toast.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';

/** Workflows of the organization: prepared chat setups (a system prompt, a model) everyone can pick. */
export function Workflows() {
  const workflows = useLoader(() => client.call('workflows.list', { include_inactive: true }));
  const models = useLoader(() => client.call('models.list', {}));
  const datasets = useLoader(() => client.call('datasets.list', { limit: 200 }));
  const modelNames = new Map(models.state.status === 'ready' ? models.state.data.data.map((m) => [m.id, m.name]) : []);
  return (
    <>
      <Section title="New workflow" description="A name people pick in chat, with the instructions the model gets before their messages.">
        <CreateWorkflow
          models={models.state.status === 'ready' ? models.state.data.data : []}
          datasets={datasets.state.status === 'ready' ? datasets.state.data.data : []}
          onCreated={workflows.reload}
        />
      </Section>
      <Section title="Workflows" description="Active workflows are offered to everyone in the organization; inactive ones are kept for later.">
        <Loadable state={workflows.state} reload={workflows.reload} loading="Loading workflows…" failed="The workflows could not be loaded">
          {(list) => <WorkflowTable workflows={list.data} modelNames={modelNames} onChanged={workflows.reload} />}
        </Loadable>
      </Section>
    </>
  );
}

function CreateWorkflow({ models, datasets, onCreated }: { models: Array<{ id: string; name: string }>; datasets: Array<{ id: string; name: string }>; onCreated: () => void }) {
  const promptId = useId();
  const agentId = useId();
  const [datasetIds, setDatasetIds] = useState<string[]>([]);
  const [agentic, setAgentic] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState('');
  const [missing, setMissing] = useState<{ name?: string; prompt?: string }>({});
  const create = useAction(async () => {
    const created = await client.call('workflows.create', {
      name: name.trim(),
      system_prompt: prompt,
      ...(description.trim() ? { description: description.trim() } : {}),
      ...(model ? { model_endpoint_override: model } : {}),
      dataset_ids: datasetIds,
      agentic,
    });
    setDatasetIds([]);
    setAgentic(false);
    setName('');
    setDescription('');
    setPrompt('');
    setModel('');
    toast.success(`Workflow “${created.name}” created`, 'It is active: everyone can pick it in chat.');
    onCreated();
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = { ...(name.trim() ? {} : { name: 'Give the workflow a name.' }), ...(prompt.trim() ? {} : { prompt: 'Write the instructions the model gets.' }) };
    setMissing(problems);
    if (problems.name || problems.prompt) return;
    void create.run();
  }

  return (
    <form className="stack-form" aria-label="New workflow" onSubmit={submit} noValidate>
      <div className="form-grid">
        <TextField label="Name" autoComplete="off" value={name} maxLength={120} onChange={(event) => setName(event.target.value)} error={missing.name} />
        <TextField label="Description" autoComplete="off" value={description} onChange={(event) => setDescription(event.target.value)} hint="Optional; shown next to the name." />
        <SelectField label="Model" value={model} onChange={(event) => setModel(event.target.value)} hint="Dynamic routing picks a model per message.">
          <option value="">Dynamic routing</option>
          {models.map((m) => (
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
          rows={4}
          value={prompt}
          placeholder="For example: You are a careful reviewer of contracts. Quote the clause you rely on."
          aria-invalid={missing.prompt ? true : undefined}
          aria-describedby={missing.prompt ? `${promptId}-error` : undefined}
          onChange={(event) => setPrompt(event.target.value)}
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
          Agent mode <span className="muted">— answers plan, search and read the datasets first</span>
        </label>
      </div>
      {create.error ? <Alert tone="error">{create.error}</Alert> : null}
      <div>
        <Button type="submit" variant="primary" icon={<PlusIcon />} busy={create.busy}>
          Create workflow
        </Button>
      </div>
    </form>
  );
}

function WorkflowTable({ workflows, modelNames, onChanged }: { workflows: Workflow[]; modelNames: Map<string, string>; onChanged: () => void }) {
  const [deleting, setDeleting] = useState<Workflow | null>(null);
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
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Workflows</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col" className="cell-actions">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {workflows.map((w) => (
              <tr key={w.id}>
                <th scope="row" className="cell-primary">
                  {w.name}
                  {w.builtin ? <span className="badge">Built in</span> : null}
                  {w.description ? <span className="cell-secondary">{w.description}</span> : null}
                </th>
                <td>{w.model_endpoint_override ? (modelNames.get(w.model_endpoint_override) ?? w.model_endpoint_override) : <span className="muted">Dynamic routing</span>}</td>
                <td>{w.active ? <span className="badge badge-success">Active</span> : <span className="badge">Inactive</span>}</td>
                <td className="cell-actions">
                  {w.builtin ? (
                    <span className="muted nowrap">
                      Set by <a href="#/admin/config">simple_chat</a>
                    </span>
                  ) : (
                    <div className="row-actions">
                      <Button size="sm" onClick={() => void toggle.run(w)} disabled={toggle.busy} aria-label={`${w.active ? 'Deactivate' : 'Activate'} ${w.name}`}>
                        {w.active ? 'Deactivate' : 'Activate'}
                      </Button>
                      <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={() => setDeleting(w)} aria-label={`Delete ${w.name}`}>
                        Delete
                      </Button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
