import { z } from 'zod';
import { CHAT_IMAGE_TYPES } from '../chat-images.js';
import { prefixedId } from './common.js';
import { defineOperation } from './define.js';
import { FileDownload } from './files.js';

/** The images sent with a chat message (`chat.send`'s `images`), served back to the thread's owner. */

const ImageParams = z.object({ message_id: prefixedId('msg'), image_id: prefixedId('img') });

export const messageImage = defineOperation({
  name: 'messages.image',
  summary: 'An image sent with one of your messages (listed in its `images`), as the image itself with its content type. 404 for anyone else\'s.',
  tag: 'Threads',
  access: 'user',
  response: 'file',
  http: { method: 'GET', path: '/messages/{message_id}/images/{image_id}', status: 200 },
  input: ImageParams,
  output: FileDownload,
});

export const messageImageData = defineOperation({
  name: 'messages.image_data',
  summary:
    'The same image as `messages.image`, base64 in JSON: for a client whose transport carries no files (the desktop app over IPC). 404 for anyone else\'s.',
  tag: 'Threads',
  access: 'user',
  http: { method: 'GET', path: '/messages/{message_id}/images/{image_id}/data', status: 200 },
  input: ImageParams,
  output: z.object({ id: z.string(), name: z.string(), media_type: z.enum(CHAT_IMAGE_TYPES), size: z.number().int(), data: z.string() }),
});
