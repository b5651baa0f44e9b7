import type { AuthedSlice } from '../../platform/context.js';
import { allModels, type CatalogCtx } from '../../models/catalog/catalog.js';
import type { HandlersFor } from '../../platform/operation-handlers.js';

const GENERAL = [
  { id: 'general-explain', title: 'Explain a concept', prompt: 'Explain how public-key cryptography works, with a simple example.' },
  { id: 'general-code', title: 'Write some code', prompt: 'Write a TypeScript function that groups an array of objects by a key.' },
  { id: 'general-plan', title: 'Make a plan', prompt: 'Help me plan a two-week study schedule for learning SQL.' },
];

const SUGGESTED_DATASETS = 8;

/** Datasets of the organization that have files ready, newest first. */
function readyDatasets(ctx: AuthedSlice<'repos'>) {
  const page = ctx.repos.datasets.page(ctx.caller.user.organization_id, 50, undefined);
  return (page?.rows ?? [])
    .map((d) => ({ id: d.id, kb_id: d.kb_id, name: d.name, description: d.description, ready_count: ctx.repos.artifacts.page(d.kb_id, 200, undefined, 'ready')?.rows.length ?? 0 }))
    .filter((d) => d.ready_count > 0);
}

/** Whether any model other than the built-in extractive one could answer (and is not out of rotation). */
export function hasGenerativeModel(ctx: CatalogCtx): boolean {
  return allModels(ctx).some((m) => m.provider !== 'extractive' && m.status !== 'unavailable');
}

/**
 * What a dataset's first ready file is about, as words a question can use: the last heading of
 * its first sections ("Working from home"), or else the file's name.
 */
function topicOf(ctx: AuthedSlice<'repos'>, kbId: string): string | null {
  const first = ctx.repos.artifacts.page(kbId, 1, undefined, 'ready')?.rows[0];
  if (!first) return null;
  for (const chunk of ctx.repos.chunks.opening(first.id, 4)) {
    const parts = chunk.location.section?.split('>').map((p) => p.trim()).filter(Boolean) ?? [];
    const last = parts.at(-1);
    if (last && parts.length > 1) return last.toLowerCase();
  }
  const name = first.key.replace(/\.[^.]+$/, '').replace(/[-_.]+/g, ' ').trim();
  return name || null;
}

/**
 * One prompt per dataset that has files ready (clicking it starts a chat over that dataset), and
 * general prompts. Only prompts the available models can answer: the built-in extractive model
 * answers nothing but what a dataset says, so with no other model the general prompts go, and the
 * dataset prompts ask about something the dataset holds instead of for a summary.
 */
export function suggestedPrompts(ctx: CatalogCtx) {
  const generative = hasGenerativeModel(ctx);
  const fromDatasets = readyDatasets(ctx)
    .slice(0, 3)
    .flatMap((d) => {
      if (generative) return [{ id: `dataset-${d.id}`, title: `Summarize ${d.name}`, prompt: `What are the main topics covered in ${d.name}?`, dataset_id: d.id }];
      const topic = topicOf(ctx, d.kb_id);
      return topic ? [{ id: `dataset-${d.id}`, title: `Ask ${d.name}`, prompt: `What does ${d.name} say about ${topic}?`, dataset_id: d.id }] : [];
    });
  const general = generative ? GENERAL.map((p) => ({ ...p, dataset_id: null })) : [];
  return { orientation: ctx.config().ui.carousel, data: [...fromDatasets, ...general] };
}

export function suggestedDatasets(ctx: AuthedSlice<'repos' | 'config'>) {
  return { orientation: ctx.config().ui.carousel, data: readyDatasets(ctx).slice(0, SUGGESTED_DATASETS) };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const suggestionHandlers: HandlersFor<'suggestions'> = {
  'suggestions.prompts': suggestedPrompts,
  'suggestions.datasets': suggestedDatasets,
};
