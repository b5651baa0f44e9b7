import type { AuthedContext } from '../context.js';

const GENERAL = [
  { id: 'general-explain', title: 'Explain a concept', prompt: 'Explain how public-key cryptography works, with a simple example.' },
  { id: 'general-code', title: 'Write some code', prompt: 'Write a TypeScript function that groups an array of objects by a key.' },
  { id: 'general-plan', title: 'Make a plan', prompt: 'Help me plan a two-week study schedule for learning SQL.' },
];

const SUGGESTED_DATASETS = 8;

/** Datasets of the organization that have files ready, newest first. */
function readyDatasets(ctx: AuthedContext) {
  const page = ctx.repos.datasets.page(ctx.caller.user.organization_id, 50, undefined);
  return (page?.rows ?? [])
    .map((d) => ({ id: d.id, name: d.name, description: d.description, ready_count: ctx.repos.artifacts.page(d.kb_id, 200, undefined, 'ready')?.rows.length ?? 0 }))
    .filter((d) => d.ready_count > 0);
}

/** General prompts, and one per dataset that has files ready: clicking it starts a chat over that dataset. */
export function suggestedPrompts(ctx: AuthedContext) {
  const fromDatasets = readyDatasets(ctx)
    .slice(0, 3)
    .map((d) => ({ id: `dataset-${d.id}`, title: `Summarize ${d.name}`, prompt: `What are the main topics covered in ${d.name}?`, dataset_id: d.id }));
  return { orientation: ctx.config().ui.carousel, data: [...fromDatasets, ...GENERAL.map((p) => ({ ...p, dataset_id: null }))] };
}

export function suggestedDatasets(ctx: AuthedContext) {
  return { orientation: ctx.config().ui.carousel, data: readyDatasets(ctx).slice(0, SUGGESTED_DATASETS) };
}
