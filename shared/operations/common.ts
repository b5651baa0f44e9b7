import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** ISO-8601 UTC timestamp, as every `*_at` field is. */
export const Timestamp = z.string().describe('ISO-8601 UTC timestamp');

/** An opaque id with its type prefix, e.g. `usr_…`. */
export const prefixedId = (prefix: string) =>
  z
    .string()
    .max(64)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), `must be an id starting with ${prefix}_`);

/**
 * Text a person typed and others will see (names, titles): trimmed, well-formed Unicode, no control
 * characters. Stored as given otherwise.
 */
export const displayText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max)
    .refine((s) => s.isWellFormed(), 'must be well-formed Unicode')
    .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters');

/** Text sent to a model (a message, a prompt): not blank, well-formed Unicode, kept exactly as typed. */
export const modelText = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max)
    .refine((s) => s.trim().length > 0, 'must not be blank')
    .refine((s) => s.isWellFormed(), 'must be well-formed Unicode');

export const Role = z.enum(['super_admin', 'admin', 'member', 'trial']);
export type Role = z.infer<typeof Role>;

/** `?limit=&cursor=` of every paged list. Query strings arrive as text, IPC as numbers: coerce both. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: z.string().nullable() });

export const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

export const Empty = z.object({});
export const NoContent = z.null();
