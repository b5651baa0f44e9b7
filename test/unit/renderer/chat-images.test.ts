import { describe, expect, it } from 'vitest';
import { chatImageUrl, readChatImage, sniffChatImage } from '../../../renderer/src/pages/chat/chat-images.js';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { MAX_CHAT_IMAGE_BYTES } from '../../../shared/chat-images.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const en = intlFor('en');

describe('images read in the composer', () => {
  it('reads a PNG as base64 with the type its bytes say, whatever the name or the browser guessed', async () => {
    const image = await readChatImage(new File([PNG], 'shot.jpg', { type: 'image/jpeg' }), en);
    expect(image).toEqual({ name: 'shot.jpg', media_type: 'image/png', data: Buffer.from(PNG).toString('base64'), size: PNG.length });
    expect(chatImageUrl(image)).toBe(`data:image/png;base64,${image.data}`);
  });

  it('tells the four types apart by their first bytes and refuses others (HEIC, text)', () => {
    const ascii = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    expect(sniffChatImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffChatImage(ascii('GIF89a'))).toBe('image/gif');
    expect(sniffChatImage(ascii('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffChatImage(ascii('\0\0\0\x18ftypheic'))).toBeNull();
    expect(sniffChatImage(ascii('hello'))).toBeNull();
  });

  it('refuses, naming the file, one that is not an image by its content even when declared image/png', async () => {
    await expect(readChatImage(new File(['just text'], 'notes.png', { type: 'image/png' }), en)).rejects.toThrow(
      '“notes.png” cannot be sent as an image: only PNG, JPEG, WebP and GIF images can.',
    );
  });

  it('refuses an empty file and one over the size limit before reading it', async () => {
    await expect(readChatImage(new File([], 'blank.png'), en)).rejects.toThrow('“blank.png” is empty.');
    const big = new File([new Uint8Array(MAX_CHAT_IMAGE_BYTES + 1024 * 1024)], 'huge.png', { type: 'image/png' });
    await expect(readChatImage(big, en)).rejects.toThrow('“huge.png” is 6.0 MB; images can be at most 5.0 MB.');
  });
});
