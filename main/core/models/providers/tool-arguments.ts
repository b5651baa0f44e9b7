/** A tool call's arguments as an object, whatever the model wrote (invalid JSON or a non-object is `{}`: the tool then says what is missing). */
export function parseToolArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
