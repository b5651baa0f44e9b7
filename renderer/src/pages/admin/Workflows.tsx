import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
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
  const intl = useIntl();
  const workflows = useLoader(() => client.call('workflows.list', { include_inactive: true }));
  const models = useLoader(() => client.call('models.list', {}));
  const datasets = useLoader(() => client.call('datasets.list', { limit: 200 }));
  const modelList = models.state.status === 'ready' ? models.state.data.data : [];
  const datasetList = datasets.state.status === 'ready' ? datasets.state.data.data : [];
  const modelNames = new Map(modelList.map((m) => [m.id, m.name]));
  return (
    <>
      <Section title={intl.formatMessage({ id: 'admin.workflows.new.title' })} description={intl.formatMessage({ id: 'admin.workflows.new.description' })}>
        <WorkflowForm models={modelList} datasets={datasetList} onSaved={workflows.reload} />
      </Section>
      <Section title={intl.formatMessage({ id: 'admin.workflows.list.title' })} description={intl.formatMessage({ id: 'admin.workflows.list.description' })}>
        <Loadable
          state={workflows.state}
          reload={workflows.reload}
          loading={intl.formatMessage({ id: 'admin.workflows.list.loading' })}
          failed={intl.formatMessage({ id: 'admin.workflows.list.loadFailed' })}
        >
          {(list) => <WorkflowTable workflows={list.data} models={modelList} datasets={datasetList} modelNames={modelNames} onChanged={workflows.reload} />}
        </Loadable>
      </Section>
    </>
  );
}

type Named = { id: string; name: string };

/** The configuration table that sets the built-in workflow: a name in the file, the same in every language. */
const SIMPLE_CHAT_KEY = 'simple_chat';

/** Field errors the service names (`errors[].path`) that this form can show under a field. */
function placeErrors(error: unknown, intl: IntlShape): { name?: string; prompt?: string } | null {
  if (!(error instanceof ServiceError) || !error.errors) return null;
  const name = error.errors.find((e) => e.path === 'name');
  const prompt = error.errors.find((e) => e.path === 'system_prompt');
  if (!name && !prompt) return null;
  return {
    ...(name ? { name: intl.formatMessage({ id: 'admin.workflows.error.name' }, { problem: name.message }) } : {}),
    ...(prompt ? { prompt: intl.formatMessage({ id: 'admin.workflows.error.prompt' }, { problem: prompt.message }) } : {}),
  };
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
  const intl = useIntl();
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
        toast.success(
          intl.formatMessage({ id: 'admin.workflows.saved.title' }, { name: updated.name }),
          intl.formatMessage({ id: updated.active ? 'admin.workflows.saved.active' : 'admin.workflows.saved.inactive' }),
        );
      } else {
        const created = await client.call('workflows.create', fields);
        setDatasetIds([]);
        setAgentic(false);
        setName('');
        setDescription('');
        setPrompt('');
        setModel('');
        toast.success(intl.formatMessage({ id: 'admin.workflows.created.title' }, { name: created.name }), intl.formatMessage({ id: 'admin.workflows.created.body' }));
      }
    } catch (error) {
      const placed = placeErrors(error, intl);
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
    const problems = {
      ...(name.trim() ? {} : { name: intl.formatMessage({ id: 'admin.workflows.nameRequired' }) }),
      ...(prompt.trim() ? {} : { prompt: intl.formatMessage({ id: 'admin.workflows.promptRequired' }) }),
    };
    setMissing(problems);
    if (problems.name || problems.prompt) return;
    void save.run();
  }

  // A model that is gone still shows, by its id, rather than silently becoming dynamic routing.
  const modelOptions = model && !models.some((m) => m.id === model) ? [...models, { id: model, name: model }] : models;

  return (
    <form
      className={editing ? 'stack-form model-form workflow-edit' : 'stack-form'}
      aria-label={editing ? intl.formatMessage({ id: 'admin.workflows.form.edit' }, { name: workflow.name }) : intl.formatMessage({ id: 'admin.workflows.form.new' })}
      onSubmit={submit}
      noValidate
    >
      {editing ? (
        <h3 className="model-form-title">
          <FormattedMessage id="admin.workflows.form.editTitle" values={{ name: workflow.name }} />
        </h3>
      ) : null}
      <div className="form-grid">
        <TextField ref={nameRef} label={intl.formatMessage({ id: 'admin.workflows.form.name' })} autoComplete="off" value={name} maxLength={120} onChange={(event) => {
            setName(event.target.value);
            setMissing(({ name: _fixed, ...rest }) => rest);
          }}
          error={missing.name}
        />
        <TextField
          label={intl.formatMessage({ id: 'admin.workflows.form.description' })}
          autoComplete="off"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          hint={intl.formatMessage({ id: 'admin.workflows.form.descriptionHint' })}
        />
        <SelectField
          label={intl.formatMessage({ id: 'admin.workflows.form.model' })}
          value={model}
          onChange={(event) => setModel(event.target.value)}
          hint={intl.formatMessage({ id: 'admin.workflows.form.modelHint' })}
        >
          <option value="">{intl.formatMessage({ id: 'admin.workflows.form.dynamic' })}</option>
          {modelOptions.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={promptId}>
          <FormattedMessage id="admin.workflows.form.prompt" />
        </label>
        <textarea
          id={promptId}
          className="input workflow-prompt"
          rows={editing ? 6 : 4}
          value={prompt}
          placeholder={intl.formatMessage({ id: 'admin.workflows.form.promptPlaceholder' })}
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
        <DatasetPicker datasets={datasets} value={datasetIds} onChange={setDatasetIds} disabled={false} legend={intl.formatMessage({ id: 'admin.workflows.form.datasets' })} />
        <label className="checkbox-row" htmlFor={agentId}>
          <input id={agentId} type="checkbox" checked={agentic} onChange={(event) => setAgentic(event.target.checked)} />
          <span>
            <FormattedMessage id="admin.workflows.form.agent" values={{ muted: (chunks) => <span className="muted">{chunks}</span> }} />
          </span>
        </label>
      </div>
      {save.error ? <Alert tone="error">{save.error}</Alert> : null}
      <div className="model-form-actions workflow-form-actions">
        {onCancel ? (
          <Button onClick={onCancel} disabled={save.busy}>
            <FormattedMessage id="admin.workflows.form.cancel" />
          </Button>
        ) : null}
        <Button type="submit" variant="primary" icon={editing ? <CheckIcon /> : <PlusIcon />} busy={save.busy}>
          <FormattedMessage id={editing ? 'admin.workflows.form.save' : 'admin.workflows.form.create'} />
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
  const intl = useIntl();
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const [editing, setEditing] = useState<Workflow | null>(null);
  const toggle = useAction(async (w: Workflow) => {
    const updated = await client.call('workflows.update', { id: w.id, active: !w.active });
    toast.success(intl.formatMessage({ id: updated.active ? 'admin.workflows.toast.activated' : 'admin.workflows.toast.deactivated' }, { name: updated.name }));
    onChanged();
  });
  const remove = useAction(async (w: Workflow) => {
    await client.call('workflows.delete', { id: w.id });
    setDeleting(null);
    toast.success(intl.formatMessage({ id: 'admin.workflows.toast.deleted' }, { name: w.name }));
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
        caption={intl.formatMessage({ id: 'admin.workflows.table.caption' })}
        rows={workflows}
        rowKey={(w) => w.id}
        empty={
          <TableEmpty>
            <FormattedMessage id="admin.workflows.table.empty" />
          </TableEmpty>
        }
        name={{
          header: intl.formatMessage({ id: 'admin.workflows.table.name' }),
          wrap: true,
          cell: (w) => (
            <>
              {w.name}
              {w.builtin ? (
                <span className="badge">
                  <FormattedMessage id="admin.workflows.table.builtin" />
                </span>
              ) : null}
              {w.description ? <span className="cell-secondary">{w.description}</span> : null}
            </>
          ),
        }}
        columns={[
          {
            id: 'model',
            header: intl.formatMessage({ id: 'admin.workflows.table.model' }),
            narrow: 'under',
            cell: (w) =>
              w.model_endpoint_override ? (
                (modelNames.get(w.model_endpoint_override) ?? w.model_endpoint_override)
              ) : (
                <span className="muted">
                  <FormattedMessage id="admin.workflows.table.dynamic" />
                </span>
              ),
          },
          {
            id: 'status',
            header: intl.formatMessage({ id: 'admin.workflows.table.status' }),
            cell: (w) =>
              w.active ? (
                <span className="badge badge-success">
                  <FormattedMessage id="admin.workflows.table.active" />
                </span>
              ) : (
                <span className="badge">
                  <FormattedMessage id="admin.workflows.table.inactive" />
                </span>
              ),
          },
        ]}
        actions={(w) =>
          w.builtin ? (
            <span className="muted nowrap">
              <FormattedMessage id="admin.workflows.table.setBy" values={{ key: <a href="#/admin/config">{SIMPLE_CHAT_KEY}</a> }} />
            </span>
          ) : (
            <>
              <Button size="sm" variant="ghost" onClick={() => setEditing(w)} aria-label={intl.formatMessage({ id: 'admin.workflows.table.editLabel' }, { name: w.name })}>
                <FormattedMessage id="admin.workflows.table.edit" />
              </Button>
              <Button
                size="sm"
                onClick={() => void toggle.run(w)}
                disabled={toggle.busy}
                aria-label={intl.formatMessage({ id: w.active ? 'admin.workflows.table.deactivateLabel' : 'admin.workflows.table.activateLabel' }, { name: w.name })}
              >
                <FormattedMessage id={w.active ? 'admin.workflows.table.deactivate' : 'admin.workflows.table.activate'} />
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="btn-danger-ghost"
                onClick={() => setDeleting(w)}
                aria-label={intl.formatMessage({ id: 'admin.workflows.table.deleteLabel' }, { name: w.name })}
              >
                <FormattedMessage id="admin.workflows.table.delete" />
              </Button>
            </>
          )
        }
      />
      <ConfirmDialog
        open={deleting !== null}
        title={intl.formatMessage({ id: 'admin.workflows.delete.title' }, { name: deleting?.name ?? '' })}
        confirmLabel={intl.formatMessage({ id: 'admin.workflows.delete.confirm' })}
        tone="danger"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => deleting && void remove.run(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>
          <FormattedMessage id="admin.workflows.delete.body" />
        </p>
      </ConfirmDialog>
    </>
  );
}
