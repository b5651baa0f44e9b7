/**
 * Images sent with a chat message: what the service takes, shared by the composer (which says so
 * before a byte leaves) and the service (which checks the bytes themselves).
 */

/** Image types every vision-capable provider we speak to reads (OpenAI, Anthropic, Gemini, llama.cpp). */
export const CHAT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ChatImageType = (typeof CHAT_IMAGE_TYPES)[number];

/** At most this many images per message: providers cap it (Anthropic at 20, many local models at a few). */
export const MAX_CHAT_IMAGES = 4;

/** At most this many bytes per image, decoded: Anthropic's own limit, and plenty for a photo. */
export const MAX_CHAT_IMAGE_BYTES = 5 * 1024 * 1024;

/** File name extensions of the types, for a file picker's `accept`. */
export const CHAT_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,.png,.jpg,.jpeg,.webp,.gif';

export function isChatImageType(value: string): value is ChatImageType {
  return (CHAT_IMAGE_TYPES as readonly string[]).includes(value);
}
