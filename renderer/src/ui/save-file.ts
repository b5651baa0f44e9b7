/**
 * Hands text the page built to the browser as a download. The app talks to its service over IPC,
 * which carries no file answer, so exports are made here from data the page already reads.
 */
export function saveFile(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: the download keeps its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A title made safe as a file name on every system: no separators, reserved or control characters. */
export function fileStem(title: string, fallback: string): string {
  // eslint-disable-next-line no-control-regex
  const stem = title.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+|\.+$/g, '').slice(0, 100).trim();
  return stem || fallback;
}
