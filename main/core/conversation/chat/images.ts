import { isChatImageType, MAX_CHAT_IMAGE_BYTES, type ChatImageType } from '../../../../shared/chat-images.js';
import { ServiceError, type FieldError } from '../../../../shared/errors.js';
import type { Model } from '../../../../shared/operations/models.js';
import { formatBytes } from '../../../../shared/bytes.js';
import type { NewMessageImage } from '../../../db/repositories/message-images.js';
import { sniffMagic } from '../../knowledge/ingest/mime.js';
import { newId } from '../../platform/ids.js';
import type { ChatInput } from './types.js';

/** What a model that cannot see an earlier message's image is shown in its place. */
export const IMAGE_PLACEHOLDER = '[image]';

/** An image a model is shown: its type and bytes. */
export interface ShownImage {
  media_type: ChatImageType;
  data: Buffer;
}

/**
 * The images of a request, decoded and checked by their bytes: a PNG, JPEG, WebP or GIF of at most
 * the size limit, stored as the type its content says (a JPEG sent as `image/png` is a JPEG). A
 * file of another kind (a text file declared `image/png`, a HEIC photo) is refused, 400, by field.
 */
export function checkImages(images: ChatInput['images']): NewMessageImage[] {
  if (!images?.length) return [];
  const errors: FieldError[] = [];
  const checked = images.map((image, i): NewMessageImage => {
    const data = Buffer.from(image.data, 'base64');
    const name = image.name ?? `image-${i + 1}`;
    const path = `images.${i}.data`;
    const found = sniffMagic(data.subarray(0, 64));
    if (data.length === 0) errors.push({ path, message: `${name} is empty` });
    else if (data.length > MAX_CHAT_IMAGE_BYTES) errors.push({ path, message: `${name} is ${formatBytes(data.length)}; an image may be at most ${formatBytes(MAX_CHAT_IMAGE_BYTES)}` });
    else if (found === null || !isChatImageType(found)) {
      errors.push({ path, message: `${name} ${found ? `holds ${found}` : 'is not an image'} (declared ${image.media_type}); only PNG, JPEG, WebP and GIF images can be sent` });
    }
    return { id: newId('img'), name, media_type: found !== null && isChatImageType(found) ? found : image.media_type, data };
  });
  if (errors.length > 0) {
    throw new ServiceError('invalid_argument', `Some images cannot be sent: ${errors.map((e) => e.message).join('; ')}.`, errors);
  }
  return checked;
}

/**
 * A named model that cannot read the message's images (models/catalog/vision.ts), the same 400 for
 * POST /chat and `/v1`; `path` names where the images came: `images`, or `/v1`'s `messages`.
 */
export function cannotReadImages(model: Model, path = 'images'): ServiceError {
  const detail = `${model.name} cannot read images: send text only, or choose a model that reads images (Settings → Models → "Reads images").`;
  return new ServiceError('invalid_argument', detail, [{ path, message: detail }]);
}

/** Dynamic routing with no model that reads images: the same 400 for POST /chat and `/v1`. */
export function noModelReadsImages(path = 'images'): ServiceError {
  return new ServiceError('invalid_argument', 'No model available here can take images: mark one that reads them (Settings → Models → "Reads images"), or send text only.', [
    { path, message: 'no model can take it' },
  ]);
}

/** An image as a provider takes it (`ChatTurn.images`): a `data:` URL. */
export function dataUrl(image: ShownImage): string {
  return `data:${image.media_type};base64,${image.data.toString('base64')}`;
}

/**
 * Images of earlier messages a model is shown at most: the newest ones. Each costs a prompt ~1,600
 * tokens and up to 5 MB read from the database, so a long illustrated thread does not resend all.
 */
export const MAX_HISTORY_IMAGES = 8;

type Turn = { role: 'user' | 'assistant'; content: string; images?: string[] | undefined };

/**
 * The branch as a model is shown it: with its questions' images when `show` (the model reads
 * images), the newest `MAX_HISTORY_IMAGES` of them; otherwise, and for older ones, `[image]` in
 * each one's place, so the model knows an image was there and the text still reads.
 */
export function branchTurns(
  imagesOf: (messageIds: string[]) => Map<string, ShownImage[]>,
  counts: (messageIds: string[]) => Map<string, number>,
  branch: ReadonlyArray<{ id: string; role: 'user' | 'assistant'; content: string }>,
  show: boolean,
): Turn[] {
  const questions = branch.filter((m) => m.role === 'user').map((m) => m.id);
  const counted = counts(questions);
  if (counted.size === 0) return branch.map((m) => ({ role: m.role, content: m.content }));
  // The newest messages' images, up to the cap, newest first.
  const shownIds: string[] = [];
  let room = show ? MAX_HISTORY_IMAGES : 0;
  for (const id of [...questions].reverse()) {
    const n = counted.get(id) ?? 0;
    if (n === 0 || n > room) continue;
    shownIds.push(id);
    room -= n;
  }
  const shown = shownIds.length > 0 ? imagesOf(shownIds) : new Map<string, ShownImage[]>();
  return branch.map((m) => {
    const images = shown.get(m.id);
    if (images?.length) return { role: m.role, content: m.content, images: images.map(dataUrl) };
    const hidden = counted.get(m.id) ?? 0;
    if (hidden === 0) return { role: m.role, content: m.content };
    const marks = Array.from({ length: hidden }, () => IMAGE_PLACEHOLDER).join(' ');
    return { role: m.role, content: m.content ? `${m.content}\n${marks}` : marks };
  });
}
