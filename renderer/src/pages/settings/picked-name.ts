/** The longest display name the service accepts. */
const MAX_NAME = 100;

/**
 * The display name once a model is picked from the endpoint's list: the picked id, unless the person
 * typed a name of their own. `autoFilled` is the name an earlier pick put there, replaced in turn.
 */
export function nameAfterPick(name: string, autoFilled: string | null, picked: string): string {
  const typed = name.trim() !== '' && name !== autoFilled;
  return typed ? name : picked.slice(0, MAX_NAME);
}
