/** The part of an IPC event that says which frame sent it (Electron's `IpcMain(Invoke)Event`). */
export interface IpcSenderLike {
  /** Null once the frame has navigated away or been destroyed. */
  readonly senderFrame: { readonly url: string } | null;
}

/**
 * Only the app's own page may call the service: a frame that navigated elsewhere (or an embedded
 * foreign frame) must not act as the desktop profile. A vanished frame is not trusted either.
 */
export function isTrustedSender(event: IpcSenderLike, isTrustedUrl: (url: string) => boolean): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && isTrustedUrl(url);
}
