import type { z } from 'zod';
import type { FieldError } from '../../../shared/errors.js';

/** zod issues → `errors: [{ path, message }]`, the shape every validation error has. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
