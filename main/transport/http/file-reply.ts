import type { FastifyReply } from 'fastify';
import type { FileDownload } from '../../../shared/operations/files.js';

/** RFC 6266 / 5987: a download name that survives any characters. */
function contentDisposition(filename: string, inline: boolean): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Types a browser shows itself rather than saving: documents people open to read. Anything else
 * (Word files, archives) is saved, as a browser would do with it anyway.
 */
function showsInline(type: string): boolean {
  return /^(text\/(plain|markdown|csv|html)|application\/(pdf|json)|image\/(png|jpeg|gif|webp))\b/.test(type);
}

/** Markdown and CSV shown as the text they are: browsers save those types rather than show them. */
function shownType(type: string): string {
  return /^text\/(markdown|csv)\b/.test(type) ? 'text/plain; charset=utf-8' : type;
}

/**
 * Uploaded files are untrusted: whatever is shown runs in a sandbox (no script, an opaque origin,
 * so nothing of Parley's is reachable). Chromium's PDF viewer refuses to run in a sandboxed
 * document, so a PDF gets every fetch and script refused instead, and its viewer (a plugin) allowed.
 */
function contentPolicy(type: string): string {
  return type.startsWith('application/pdf') ? "default-src 'none'; object-src 'self'" : "default-src 'none'; sandbox";
}

/** A `file` answer: the stored bytes streamed, typed and named, never sniffed or cached. */
export function sendFile(reply: FastifyReply, file: FileDownload) {
  const type = file.mime_type ?? 'application/octet-stream';
  const inline = file.disposition === 'inline' && showsInline(type);
  return reply
    .type(inline ? shownType(type) : type)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', contentDisposition(file.filename, inline))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', contentPolicy(type))
    .send(file.stream);
}
