import { ServiceError } from '../../../shared/errors.js';
import { findBridge } from './bridge-transport.js';

/** Asks for a folder; answers its absolute path, or null when the person cancelled. */
export type PickFolder = (title: string) => Promise<string | null>;

/**
 * The system's folder dialog, where there is one: the desktop app's bridge. Null in a browser,
 * whose pages cannot learn a folder's path on the server's disk (a path field stands in there).
 */
export function folderPicker(scope: object = globalThis): PickFolder | null {
  const bridge = findBridge(scope);
  // An older preload (a window left open across an update) has no picker: the path field serves.
  if (!bridge || typeof bridge.pickFolder !== 'function') return null;
  return async (title) => {
    const result = await bridge.pickFolder(title);
    if (!result.ok) throw ServiceError.fromPayload(result.error);
    return typeof result.value === 'string' ? result.value : null;
  };
}
