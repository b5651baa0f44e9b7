import { questionWords } from '../../../search/index.js';
import { toolStep } from './steps.js';
import { withinLimits, type AgentEvent, type AgentLimits, type Toolbox } from './types.js';

/** Passages the planner reads in full after searching (each one tool call). */
export const PASSAGES_READ = 2;
/** Terms the plan names; the search itself gets all of them. */
const TERMS_SHOWN = 8;

export interface QuestionPlan {
  /** The question's content words, in order (stop words out). */
  terms: string[];
  /** What is searched: the terms, or the question itself when it has none. */
  query: string;
  /** The plan as the `plan` step tells it. */
  text: string;
}

const quoted = (words: string[]) => words.map((w) => `"${w}"`).join(', ');

/**
 * The deterministic plan of an agent without a language model (the extractive model): search the
 * attached datasets for the question's terms, read the best passages in full, then answer by
 * quoting them with citations. Without a dataset, check what is attached and say so.
 */
export function planQuestion(question: string, datasetNames: string[], maxSteps: number): QuestionPlan {
  const { words } = questionWords(question);
  const query = words.length > 0 ? words.join(' ') : question.trim();
  if (datasetNames.length === 0) {
    return { terms: words, query, text: 'No dataset is attached to this conversation. Check which datasets are attached, then say that there is nothing to draw on.' };
  }
  const shown = words.slice(0, TERMS_SHOWN);
  const what = shown.length > 0 ? `the terms ${quoted(shown)}${words.length > shown.length ? ` and ${words.length - shown.length} more` : ''}` : 'the question as written';
  // Only a single dataset is named: a plan that names it belongs to it (and goes when it is deleted).
  const where = datasetNames.length === 1 ? `the dataset ${JSON.stringify(datasetNames[0])}` : `the ${datasetNames.length} attached datasets`;
  const reads = Math.min(PASSAGES_READ, maxSteps - 1);
  const read = reads > 0 ? `, read the ${reads === 1 ? 'best passage with its' : `${reads} best passages with their`} context` : '';
  return { terms: words, query, text: `Search ${where} for ${what}${read}, then answer by quoting the most relevant passages with citations.` };
}

/**
 * Runs the plan: every step it tells is a tool call that really happened, with what it returned.
 * Stops early at the step or time budget, or when the answer is cancelled; the answer comes after.
 */
export async function* plannedSteps(question: string, datasets: Array<{ id: string; name: string }>, tools: Toolbox, limits: AgentLimits, signal: AbortSignal): AsyncGenerator<AgentEvent> {
  const datasetNames = datasets.map((d) => d.name);
  const plan = planQuestion(question, datasetNames, limits.maxSteps);
  yield { type: 'thought', kind: 'plan', content: plan.text, dataset_id: datasets.length === 1 ? (datasets[0]?.id ?? null) : null };
  if (signal.aborted) return;
  if (datasetNames.length === 0) {
    yield* toolStep(tools, 'list_datasets', {});
    return;
  }
  let steps = 0;
  const found = yield* toolStep(tools, 'search_datasets', { query: plan.query });
  steps++;
  for (const passage of (found.passages ?? []).slice(0, PASSAGES_READ)) {
    if (signal.aborted || !withinLimits(limits, steps)) return;
    yield* toolStep(tools, 'read_passage', { passage });
    steps++;
  }
}
