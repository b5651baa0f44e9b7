import { ServiceError, errorText } from '../../../../shared/errors.js';

/** The fields of the model form that the service can name in `errors[].path`. */
export type ModelField = 'name' | 'endpoint_url' | 'api_key' | 'model';
export type ModelFieldErrors = Partial<Record<ModelField, string>>;

const FIELDS: readonly ModelField[] = ['name', 'endpoint_url', 'api_key', 'model'];
const LABELS: Record<ModelField, string> = { name: 'The name', endpoint_url: 'The URL', api_key: 'The key', model: 'The model' };

/**
 * A refusal of the service split into what sits under each field (`errors[].path`) and what is
 * left for the form as a whole; a field's message is made a sentence (`is required` → "The URL is required.").
 */
export function splitFieldErrors(error: unknown): { fields: ModelFieldErrors; rest: string | null } {
  if (!(error instanceof ServiceError) || !error.errors?.length) return { fields: {}, rest: errorText(error) };
  const fields: ModelFieldErrors = {};
  const unplaced: string[] = [];
  for (const e of error.errors) {
    const field = FIELDS.find((f) => f === e.path);
    if (field && !fields[field]) fields[field] = `${LABELS[field]} ${e.message.replace(/\.$/, '')}.`;
    else if (!field) unplaced.push(`${e.path}: ${e.message}`);
  }
  // The detail says more than "is refused" (the endpoint's answer): kept for the form when a field holds the short version.
  const placed = Object.keys(fields).length > 0;
  return { fields, rest: unplaced.length > 0 ? unplaced.join('; ') : placed && error.code === 'unprocessable' ? error.message : placed ? null : error.message };
}
