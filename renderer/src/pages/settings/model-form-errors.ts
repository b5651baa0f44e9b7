import type { IntlShape } from 'react-intl';
import { ServiceError } from '../../../../shared/errors.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { errorText } from '../../ui/error-text.js';

/** The fields of the model form that the service can name in `errors[].path`. */
export type ModelField = 'name' | 'endpoint_url' | 'api_key' | 'model';
export type ModelFieldErrors = Partial<Record<ModelField, string>>;

const FIELDS: readonly ModelField[] = ['name', 'endpoint_url', 'api_key', 'model'];
/** A field's problem as a sentence that names the field; the problem itself is the service's words. */
const SENTENCES = {
  name: 'settings.modelForm.fieldError.name',
  endpoint_url: 'settings.modelForm.fieldError.endpointUrl',
  api_key: 'settings.modelForm.fieldError.apiKey',
  model: 'settings.modelForm.fieldError.model',
} as const satisfies Record<ModelField, MessageId>;

/**
 * A refusal of the service split into what sits under each field (`errors[].path`) and what is
 * left for the form as a whole; a field's message is made a sentence (`is required` → "The URL is required.").
 */
export function splitFieldErrors(error: unknown, intl: IntlShape): { fields: ModelFieldErrors; rest: string | null } {
  if (!(error instanceof ServiceError) || !error.errors?.length) return { fields: {}, rest: errorText(error, intl) };
  const fields: ModelFieldErrors = {};
  const unplaced: string[] = [];
  for (const e of error.errors) {
    const field = FIELDS.find((f) => f === e.path);
    if (field && !fields[field]) fields[field] = intl.formatMessage({ id: SENTENCES[field] }, { problem: e.message.replace(/\.$/, '') });
    else if (!field) unplaced.push(`${e.path}: ${e.message}`);
  }
  // The detail says more than "is refused" (the endpoint's answer): kept for the form when a field holds the short version.
  const placed = Object.keys(fields).length > 0;
  return { fields, rest: unplaced.length > 0 ? unplaced.join('; ') : placed && error.code !== 'unprocessable' ? null : errorText(error, intl) };
}
