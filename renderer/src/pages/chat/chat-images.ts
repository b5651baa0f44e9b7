import type { IntlShape } from 'react-intl';
import { CHAT_IMAGE_TYPES, MAX_CHAT_IMAGE_BYTES, type ChatImageType } from '../../../../shared/chat-images.js';
import { formatBytes } from '../../../../shared/bytes.js';
import type { MessageImage } from '../../../../shared/events.js';
import { getIntl } from '../../i18n/intl.js';

export { CHAT_IMAGE_ACCEPT, CHAT_IMAGE_TYPES, MAX_CHAT_IMAGES, MAX_CHAT_IMAGE_BYTES } from '../../../../shared/chat-images.js';

/** An image picked, pasted or dropped in the composer, ready to go with the message (`POST /chat`'s `images`). */
export interface ChatImage {
  /** The file's name: the image's alt text, and how the service lists it. */
  name: string;
  /** Read from the bytes, not the name or the browser's guess. */
  media_type: ChatImageType;
  /** The bytes, base64. */
  data: string;
  /** Bytes, decoded. */
  size: number;
}

/** The type the first bytes say, among those a model can read; null for anything else (HEIC, SVG, a text file). */
export function sniffChatImage(head: Uint8Array): ChatImageType | null {
  const at = (offset: number, signature: readonly number[]) => signature.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) => at(offset, [...text].map((c) => c.charCodeAt(0)));
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return null;
}

/** Base64 of `bytes`, in slices: one `String.fromCharCode` over megabytes overflows the call stack. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

/**
 * Reads `file` for sending as an image. Rejects, with a sentence in the language in use that names
 * the file (shown as is by `errorText`; `intl` defaults to the language in use), a file that is empty, over the size limit, or not a PNG,
 * JPEG, WebP or GIF by its content; the service checks the same again.
 */
export async function readChatImage(file: File, intl: IntlShape = getIntl()): Promise<ChatImage> {
  const name = file.name.trim() || 'image';
  if (file.size === 0) throw new Error(intl.formatMessage({ id: 'chat.images.empty' }, { name }));
  if (file.size > MAX_CHAT_IMAGE_BYTES) {
    throw new Error(intl.formatMessage({ id: 'chat.images.tooLarge' }, { name, size: formatBytes(file.size, intl.locale), limit: formatBytes(MAX_CHAT_IMAGE_BYTES, intl.locale) }));
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const media_type = sniffChatImage(bytes.subarray(0, 16));
  if (!media_type) throw new Error(intl.formatMessage({ id: 'chat.images.notImage' }, { name }));
  return { name, media_type, data: toBase64(bytes), size: bytes.length };
}

/** A `data:` URL of an image not sent yet, for its preview in the composer. */
export function chatImageUrl(image: Pick<ChatImage, 'media_type' | 'data'>): string {
  return `data:${image.media_type};base64,${image.data}`;
}

/** Whether `type` (a File's) is one the composer takes, for telling images from other attachments before reading them. */
export function looksLikeChatImage(file: File): boolean {
  return (CHAT_IMAGE_TYPES as readonly string[]).includes(file.type);
}

/**
 * Images already on screen, by id, as `data:` URLs: a sent message's own (`draftImages`), then those
 * loaded from the service, so a thread read again does not fetch them again. Bounded by their
 * length (about 32 MB: a few dozen photos), the least recently stored going first.
 */
const shown = new Map<string, string>();
const SHOWN_MAX_CHARS = 32 * 1024 * 1024;
let shownChars = 0;

export function rememberImage(id: string, url: string): void {
  shownChars -= shown.get(id)?.length ?? 0;
  shown.delete(id);
  shown.set(id, url);
  shownChars += url.length;
  for (const [oldest, oldUrl] of shown) {
    if (shownChars <= SHOWN_MAX_CHARS || oldest === id) break;
    shown.delete(oldest);
    shownChars -= oldUrl.length;
  }
}

export function rememberedImage(id: string): string | undefined {
  return shown.get(id);
}

let drafts = 0;

/**
 * The images of a message being sent, as its view lists them before the service has: their ids are
 * local (`draft-img-…`), and their pictures come from what was read, not from the service.
 */
export function draftImages(images: readonly ChatImage[]): MessageImage[] {
  return images.map((image) => {
    const id = `draft-img-${++drafts}`;
    rememberImage(id, chatImageUrl(image));
    return { id, name: image.name, media_type: image.media_type, size: image.size };
  });
}
