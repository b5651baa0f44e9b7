import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../shared/errors.js';
import { MAX_CHAT_IMAGE_BYTES } from '../../../shared/chat-images.js';
import { branchTurns, checkImages, MAX_HISTORY_IMAGES, type ShownImage } from '../../../main/core/conversation/chat/images.js';
import { readsImages } from '../../../main/core/models/catalog/vision.js';
import type { Model } from '../../../shared/operations/models.js';
import { buildTurns, IMAGE_TOKENS } from '../../../main/core/answering/turns.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const b64 = (b: Buffer) => b.toString('base64');

function refusal(fn: () => unknown): ServiceError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('images of a chat message, checked by their bytes', () => {
  it('keeps each image as the type its content says, named, in order', () => {
    const checked = checkImages([
      { name: 'a.png', media_type: 'image/png', data: b64(PNG) },
      { media_type: 'image/png', data: b64(GIF) },
    ]);
    expect(checked.map((i) => [i.name, i.media_type, i.data.length])).toEqual([
      ['a.png', 'image/png', PNG.length],
      ['image-2', 'image/gif', GIF.length],
    ]);
    expect(checked[0]?.id).toMatch(/^img_/);
  });

  it('refuses, by field, a text file declared as a PNG, a HEIC photo, and an image over the limit', () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(16)]);
    const large = Buffer.concat([PNG, Buffer.alloc(MAX_CHAT_IMAGE_BYTES)]);
    const error = refusal(() =>
      checkImages([
        { name: 'notes.png', media_type: 'image/png', data: b64(Buffer.from('hello, world')) },
        { name: 'photo.heic', media_type: 'image/jpeg', data: b64(heic) },
        { name: 'ok.png', media_type: 'image/png', data: b64(PNG) },
        { name: 'big.png', media_type: 'image/png', data: b64(large) },
      ]),
    );
    expect(error.code).toBe('invalid_argument');
    expect(error.errors?.map((e) => e.path)).toEqual(['images.0.data', 'images.1.data', 'images.3.data']);
    expect(error.errors?.[0]?.message).toContain('notes.png is not an image (declared image/png)');
    expect(error.errors?.[1]?.message).toContain('photo.heic holds image/heic (declared image/jpeg)');
    expect(error.errors?.[2]?.message).toContain('big.png is 5.0 MB');
  });
});

describe('models that read images', () => {
  it('are those marked so, but never a local GGUF model or the built-in one, whatever their mark', () => {
    const model = (provider: Model['provider'], vision: boolean) => ({ provider, capabilities: { vision } }) as Model;
    expect(readsImages(model('openai_compatible', true))).toBe(true);
    expect(readsImages(model('anthropic', false))).toBe(false);
    expect(readsImages(model('llama_cpp', true))).toBe(false);
    expect(readsImages(model('extractive', true))).toBe(false);
  });
});

describe('earlier images as a model is shown them', () => {
  const branch = [
    { id: 'msg_1', role: 'user' as const, content: 'What is this?' },
    { id: 'msg_2', role: 'assistant' as const, content: 'A dot.' },
    { id: 'msg_3', role: 'user' as const, content: '' },
  ];
  const stored = new Map<string, ShownImage[]>([
    ['msg_1', [{ media_type: 'image/png', data: PNG }]],
    ['msg_3', [{ media_type: 'image/gif', data: GIF }, { media_type: 'image/gif', data: GIF }]],
  ]);
  const imagesOf = (ids: string[]) => new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!] as const] : [])));
  const counts = (ids: string[]) => new Map(ids.flatMap((id) => (stored.has(id) ? [[id, stored.get(id)!.length] as const] : [])));

  it('go as data URLs to a model that reads images', () => {
    const turns = branchTurns(imagesOf, counts, branch, true);
    expect(turns[0]).toEqual({ role: 'user', content: 'What is this?', images: [`data:image/png;base64,${b64(PNG)}`] });
    expect(turns[2]?.images).toHaveLength(2);
  });

  it('become "[image]" for a model that does not, so a message of images alone still says something', () => {
    expect(branchTurns(imagesOf, counts, branch, false)).toEqual([
      { role: 'user', content: 'What is this?\n[image]' },
      { role: 'assistant', content: 'A dot.' },
      { role: 'user', content: '[image] [image]' },
    ]);
  });

  it(`are the newest ${MAX_HISTORY_IMAGES} at most; older ones become "[image]"`, () => {
    const many = Array.from({ length: MAX_HISTORY_IMAGES + 1 }, (_, i) => ({ id: `msg_${i}`, role: 'user' as const, content: `q${i}` }));
    const one = (ids: string[]) => new Map(ids.map((id) => [id, [{ media_type: 'image/png' as const, data: PNG }]]));
    const counted = (ids: string[]) => new Map(ids.map((id) => [id, 1]));
    const turns = branchTurns(one, counted, many, true);
    expect(turns[0]).toEqual({ role: 'user', content: 'q0\n[image]' });
    expect(turns.slice(1).every((t) => t.images?.length === 1)).toBe(true);
  });

  it('cost the context a share each: an old turn with an image is dropped before it overflows', () => {
    const history = [
      { role: 'user' as const, content: 'old', images: ['data:image/png;base64,AAAA'] },
      { role: 'assistant' as const, content: 'seen' },
      { role: 'user' as const, content: 'new' },
    ];
    expect(buildTurns(null, history, 1024 + IMAGE_TOKENS + 100)).toHaveLength(3);
    expect(buildTurns(null, history, 1024 + IMAGE_TOKENS - 100).map((t) => t.content)).toEqual(['new']);
  });
});
