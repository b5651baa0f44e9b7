import { Readable } from 'node:stream';
import { ServiceError } from '../../../../shared/errors.js';
import type { FileDownload } from '../../../../shared/operations/files.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';
import { ownMessage } from '../threads/owned.js';
import type { ThreadCtx } from '../threads/access.js';

/** One image of one of the caller's messages; anyone else's, or one not of that message, is not found. */
function ownImage(ctx: ThreadCtx, input: InputOf<'messages.image'>) {
  ownMessage(ctx, input.message_id);
  const image = ctx.repos.messageImages.get(input.message_id, input.image_id);
  if (!image) throw new ServiceError('not_found', `No image ${input.image_id} in message ${input.message_id}.`);
  return image;
}

/** `messages.image`: the image itself, shown by a browser (its type is one it shows, checked when it was sent). */
export function messageImage(ctx: ThreadCtx, input: InputOf<'messages.image'>): FileDownload {
  const image = ownImage(ctx, input);
  return { filename: image.name, mime_type: image.media_type, size: image.size, disposition: 'inline', stream: Readable.from([image.data]) };
}

/** `messages.image_data`: the same, base64 in JSON, for the desktop's IPC (which carries no files). */
export function messageImageData(ctx: ThreadCtx, input: InputOf<'messages.image_data'>) {
  const image = ownImage(ctx, input);
  return { id: image.id, name: image.name, media_type: image.media_type, size: image.size, data: image.data.toString('base64') };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const messageImageHandlers: Pick<Handlers, 'messages.image' | 'messages.image_data'> = {
  'messages.image': messageImage,
  'messages.image_data': messageImageData,
};
