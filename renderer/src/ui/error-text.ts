/** What to show for a rejected call: a `ServiceError`'s message, or whatever was thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
