/**
 * Why a file is refused before it is parsed, worded for the person who uploaded it (a member as
 * often as an admin): the detail is stored on the artifact and shown as it is, so it names no
 * config key and no MIME jargon they cannot act on. The codes stay the stable ones.
 */
import { normalizeMime, type DetectedMime } from './mime.js';
import { parserKind } from './parsers/kinds.js';
import { IngestError } from './types.js';

const isImage = (mime: string | null): boolean => mime?.startsWith('image/') ?? false;

export function refusalOf(detected: DetectedMime, declared: string | null | undefined, allowedTypes: readonly string[]): IngestError | null {
  const claim = normalizeMime(declared);
  // A photo is a photo whichever image type it claims (a HEIC declared image/heif): that no
  // parser reads pictures is the reason, not the label. A PDF that is really a PNG stays a mismatch.
  if (isImage(detected.mime) && (claim === null || isImage(claim)) && !parserKind(detected.mime)) {
    return new IngestError('unsupported_media_type', 'Images are not supported yet: Parley reads the text of documents (PDF, Word, web pages, Markdown, plain text, CSV, JSON).');
  }
  if (detected.mismatch) return new IngestError('mime_mismatch', detected.detail ?? `Declared as ${claim ?? 'nothing'}, but the content is ${detected.mime}.`);
  if (!allowedTypes.includes(detected.mime)) return new IngestError('unsupported_media_type', `This file type (${detected.mime}) is not accepted here; ask an admin.`);
  return null;
}
