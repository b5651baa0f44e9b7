/**
 * Resolves on the event loop's next turn: a loop over data that is already there (a full socket
 * buffer, a long answer) awaits it now and then, so other requests are looked at in between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
