import type { z } from 'zod';
import { ServiceError, errorText } from '../../../../shared/errors.js';
import type { Report } from '../../../../shared/operations/reports.js';
import type { ReportRecord } from '../../../db/repositories/reports.js';
import { answerWithFailover } from '../../answering/index.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { orgDataset, type DatasetCtx } from '../../knowledge/datasets/access.js';
import { newId } from '../../platform/ids.js';
import { chatModels, resolveModel } from '../../models/catalog/catalog.js';
import { extractFeatures } from '../../models/routing/features.js';
import { route } from '../../models/routing/router.js';
import { renderMarkdown, type ReportData } from './render.js';
import { characteristicTerms } from './terms.js';
import type { HandlersFor, InputOf } from '../../platform/operation-handlers.js';

/** What writing a report uses: the dataset's files, and a routed model (with its health and lifetime) for the summary. */
type ReportCtx = AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets' | 'providers' | 'liveConfig' | 'lifecycle' | 'log'>;

const TERM_SAMPLE = 5000;
const SUMMARY_EXCERPTS = 12;

function reportView(row: ReportRecord): z.input<typeof Report> {
  return { ...row, error: row.error_detail };
}

/** A summary by a generative model chosen by the router; none when no generative model answers. */
async function summarize(ctx: AuthedSlice<'repos' | 'config', 'local' | 'health' | 'secrets' | 'providers' | 'liveConfig' | 'lifecycle'>, excerpts: string[]): Promise<ReportData['summary'] & { model_id?: string }> {
  const generative = chatModels(ctx).filter((m) => m.provider !== 'extractive');
  if (generative.length === 0) return { unavailable: 'No generative model is registered, so there is no written summary.' };
  if (excerpts.length === 0) return { unavailable: 'No file is ready yet, so there is nothing to summarize.' };
  const prompt = `Summarize in one paragraph what this collection of documents is about. Excerpts:\n\n${excerpts.join('\n\n---\n\n')}`;
  const decision = route(extractFeatures({ message: prompt, context: [], dataset_count: 1, agentic: false }), generative, (id) => ctx.runtime.health.health(id), ctx.config().routing);
  const candidates = decision.ranked.map((id) => resolveModel(ctx, id));
  let text = '';
  let modelId = decision.model_id;
  try {
    const events = answerWithFailover(ctx.runtime, candidates, { turns: [{ role: 'user', content: prompt }], passages: [], hasDatasets: false, signal: AbortSignal.any([AbortSignal.timeout(120_000), ctx.runtime.lifecycle.signal]), failOver: true });
    for await (const event of events) {
      if (event.type === 'delta') text += event.text;
      else if (event.type === 'switch') modelId = event.model.model.id;
    }
  } catch (error) {
    return { unavailable: `No summary: the model failed (${errorText(error)}).` };
  }
  const name = generative.find((m) => m.id === modelId)?.name ?? modelId;
  return text.trim() ? { text: text.trim(), model: name, model_id: modelId } : { unavailable: 'No summary: the model answered nothing.' };
}

async function build(ctx: ReportCtx, reportId: string, datasetId: string, format: 'markdown' | 'html'): Promise<void> {
  const { repos } = ctx;
  try {
    const dataset = orgDataset(ctx, datasetId);
    const artifacts = repos.artifacts.inKb(dataset.kb_id);
    const texts = repos.reports.chunkTexts(dataset.kb_id, TERM_SAMPLE);
    const terms = characteristicTerms(texts, repos.reports.globalChunkTexts(TERM_SAMPLE));
    const excerpts = artifacts
      .filter((a) => a.status === 'ready')
      .slice(0, SUMMARY_EXCERPTS)
      .map((a) => `${a.key}: ${repos.reports.firstChunkText(a.id).slice(0, 1200)}`);
    const summary = await summarize(ctx, excerpts);
    const data: ReportData = { dataset: { name: dataset.name, description: dataset.description }, artifacts, terms, summary, generatedAt: isoNow(ctx) };
    const content = format === 'html' ? (await import('./render-html.js')).renderHtml(data) : renderMarkdown(data);
    repos.reports.finish(reportId, { status: 'ready', content, summary_model_id: 'model_id' in summary ? (summary.model_id ?? null) : null, error_detail: null, now: isoNow(ctx) });
  } catch (error) {
    repos.reports.finish(reportId, { status: 'failed', content: null, summary_model_id: null, error_detail: errorText(error), now: isoNow(ctx) });
  }
}

/** Starts the report; it is written in the background (a summary can take a model's time). */
export function createReport(ctx: ReportCtx, input: InputOf<'reports.create'>) {
  orgDataset(ctx, input.dataset_id);
  const id = newId('rpt');
  ctx.repos.reports.insert({ id, dataset_id: input.dataset_id, user_id: ctx.caller.user.id, format: input.format, now: isoNow(ctx) });
  // Shutdown waits for it (its summary call is cut short then), so the report is stored either way.
  void ctx.runtime.lifecycle.track(build(ctx, id, input.dataset_id, input.format).catch((error: unknown) => ctx.runtime.log.error(`report ${id} could not be stored`, error)));
  return getReport(ctx, { id });
}

export function getReport(ctx: DatasetCtx, input: InputOf<'reports.get'>) {
  const row = ctx.repos.reports.get(input.id);
  if (!row) throw new ServiceError('not_found', `No report ${input.id}.`);
  orgDataset(ctx, row.dataset_id);
  return reportView(row);
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const reportHandlers: HandlersFor<'reports'> = {
  'reports.create': createReport,
  'reports.get': getReport,
};
