import { z } from 'zod';
import type { ToolSpec } from '../../platform/ports/providers.js';

export const SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 10;

const datasetRef = (what: string) => z.string().optional().describe(what);

/**
 * The arguments of each dataset tool, in zod: the one source of what the model is told (the
 * JSON Schema in `TOOL_SPECS`) and of how its call is checked (`parseToolArgs`).
 */
export const TOOL_ARGS = {
  search_datasets: z.object({
    query: z.string().trim().min(1).describe('What to look for.'),
    dataset_id: datasetRef('Search only this dataset (its id or name); all attached datasets when absent.'),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`How many passages (default ${SEARCH_LIMIT}).`),
  }),
  read_passage: z.object({
    passage: z.number().int().min(1).describe('The passage number [n] that search_datasets gave.'),
  }),
  open_artifact: z.object({
    key: z.string().min(1).describe('The file’s key, e.g. report.pdf.'),
    dataset_id: datasetRef('The dataset holding it (its id or name), when several hold a file of that key.'),
  }),
  list_datasets: z.object({}),
  list_files: z.object({
    dataset_id: datasetRef('Only this dataset (its id or name).'),
  }),
} as const;

export type ToolName = keyof typeof TOOL_ARGS;
export type ToolArgs<N extends ToolName> = z.output<(typeof TOOL_ARGS)[N]>;

const DESCRIPTIONS: Record<ToolName, string> = {
  search_datasets:
    'Searches the datasets attached to this conversation for passages relevant to a query (keywords, or a question). ' +
    'Returns numbered passages; cite them in the answer as [n].',
  read_passage: 'Reads a passage found by search_datasets in full, with the text just before and after it in its file.',
  open_artifact: 'Opens a file of the attached datasets by its key (as list_files shows it) and reads its beginning. The opening passage is numbered for citing.',
  list_datasets: 'Lists the datasets attached to this conversation: id, name, description and how many files each holds.',
  list_files: 'Lists the files of the attached datasets (or of one of them) with their processing status.',
};

/** What the model is sent: the arguments as the model writes them (`io: 'input'`), without the `$schema` line no provider needs. */
function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(schema, { io: 'input' });
  return parameters;
}

export const TOOL_NAMES = Object.keys(TOOL_ARGS) as ToolName[];

export const TOOL_SPECS: ToolSpec[] = TOOL_NAMES.map((name) => ({ name, description: DESCRIPTIONS[name], parameters: parametersOf(TOOL_ARGS[name]) }));

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOL_ARGS, name);
}

/** The call's arguments as its schema reads them, or what is wrong with them, said so the model can correct its call. */
export function parseToolArgs<N extends ToolName>(name: N, args: Record<string, unknown>): { ok: true; args: ToolArgs<N> } | { ok: false; problem: string } {
  const parsed = TOOL_ARGS[name].safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data as ToolArgs<N> };
  const issues = parsed.error.issues.map((issue) => `"${issue.path.join('.') || '(arguments)'}": ${issue.message}`);
  return { ok: false, problem: `${name} was called with bad arguments (${issues.join('; ')}). Call it again as its parameters say.` };
}
