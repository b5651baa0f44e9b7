import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAT_IMAGE_BYTES } from '../../shared/chat-images.js';
import { startChatHarness, type Harness } from '../support/chat.js';

/** Images sent with a chat message (issue 31, expectation 1): to vision models only, kept with the message. */

interface Sent {
  thread_id: string;
  user_message_id: string;
  message: { id: string; content: string; model_id: string; routing: { mode: string; model_id: string; reason: string } };
}
interface Problem {
  code: string;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}
interface Listed {
  data: Array<{ id: string; role: string; images: Array<{ id: string; name: string; media_type: string; size: number }> }>;
}

// A real one-pixel PNG, and the start of a JPEG (the service reads types from the first bytes).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);
const png = (name = 'dot.png') => ({ name, media_type: 'image/png', data: PNG.toString('base64') });

let h: Harness;
let seer = '';
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const chat = <T = Sent>(body: Record<string, unknown>, token?: string) => h.json<T>('/chat', 'POST', body, token);
const threadCount = async () => (await h.json<{ data: unknown[] }>('/threads?limit=100', 'GET')).body.data.length;
/** The last chat request the upstream received for `model`: its messages as sent. */
const lastRequest = (model: string) => {
  const request = h.upstream.requests.filter((r) => r.path === '/v1/chat/completions' && r.model === model).at(-1);
  return (request?.body as { messages: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
};

describe('images sent with a chat message', () => {
  it('with no model that reads images, refuses them 400 before anything is stored, whether routed or named', async () => {
    const plain = await h.addModel('Plain', 'echo');
    const before = await threadCount();
    const routed = await chat<Problem>({ message: 'What is this?', images: [png()] });
    expect(routed.status).toBe(400);
    expect(routed.body.code).toBe('invalid_argument');
    expect(routed.body.errors?.[0]?.path).toBe('images');
    const named = await chat<Problem>({ message: 'What is this?', images: [png()], model_endpoint_override: plain });
    expect(named.status).toBe(400);
    expect(named.body.detail).toContain('Plain cannot read images');
    expect(await threadCount()).toBe(before);
  });

  it('refuses by their bytes a forged type, too many images and one too large, each 400 naming the field', async () => {
    seer = await h.addModel('Seer', 'echo-seer', { capabilities: { quality: 6, strengths: ['general'], vision: true } });
    const forged = await chat<Problem>({ message: 'look', images: [png(), { name: 'notes.png', media_type: 'image/png', data: Buffer.from('just some text').toString('base64') }] });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual([expect.objectContaining({ path: 'images.1.data', message: expect.stringContaining('notes.png is not an image') })]);
    const many = await chat<Problem>({ message: 'look', images: Array.from({ length: 5 }, (_, i) => png(`${i}.png`)) });
    expect(many.status).toBe(400);
    expect(many.body.errors?.[0]?.path).toBe('images');
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_CHAT_IMAGE_BYTES)]).toString('base64');
    const large = await chat<Problem>({ message: 'look', images: [{ name: 'huge.png', media_type: 'image/png', data: big }] });
    expect(large.status).toBe(400);
    expect(large.body.errors?.[0]?.path).toBe('images.0.data');
  });

  it('routes a message with images to a vision model only, which receives them as data URLs; the thread keeps them', async () => {
    const sent = await chat({ message: 'What is in these?', images: [png('dot.png'), { name: 'photo.png', media_type: 'image/png', data: JPEG.toString('base64') }] });
    expect(sent.status).toBe(200);
    expect(sent.body.message.routing).toMatchObject({ mode: 'dynamic', model_id: seer });
    expect(sent.body.message.routing.reason).toContain('only models that read images');
    expect(lastRequest('echo-seer').at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
        // Stored and sent as what its bytes are, whatever it was declared.
        { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG.toString('base64')}` } },
      ],
    });

    // A reload: the list has them as metadata, the bytes come back with their type, to the owner only.
    const listed = await h.json<Listed>(`/threads/${sent.body.thread_id}/messages`, 'GET');
    const question = listed.body.data.find((m) => m.id === sent.body.user_message_id);
    expect(question?.images).toEqual([
      { id: expect.stringMatching(/^img_/), name: 'dot.png', media_type: 'image/png', size: PNG.length },
      { id: expect.stringMatching(/^img_/), name: 'photo.png', media_type: 'image/jpeg', size: JPEG.length },
    ]);
    const path = `/messages/${sent.body.user_message_id}/images/${question?.images[0]?.id ?? ''}`;
    const bytes = await h.api(path);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(PNG);
    expect((await h.json<{ data: string }>(`${path}/data`, 'GET')).body.data).toBe(PNG.toString('base64'));
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'peek@example.com', name: 'Peek' });
    expect((await h.api(path, { token: member.body.api_key.key })).status).toBe(404);
    expect((await h.json(`${path}/data`, 'GET', undefined, member.body.api_key.key)).status).toBe(404);

    // A Retry sends the question's images again, read from the store.
    const before = h.upstream.requests.length;
    expect((await h.json(`/chat/${sent.body.message.id}/regenerate`, 'POST', {})).status).toBe(200);
    expect(h.upstream.requests.length).toBeGreaterThan(before);
    expect(lastRequest('echo-seer').at(-1)?.content).toEqual(expect.arrayContaining([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } }]));

    // A later turn shows the earlier image to a model that reads images, and "[image]" to one that does not.
    const plain = await h.addModel('Plain later', 'echo-plain');
    await chat({ thread_id: sent.body.thread_id, message: 'And now?', model_endpoint_override: plain });
    expect(lastRequest('echo-plain')[0]).toEqual({ role: 'user', content: 'What is in these?\n[image] [image]' });

    // An edited question keeps its images; the thread's deletion takes them all.
    const edited = await h.json<Sent>(`/chat/${sent.body.user_message_id}/edit`, 'POST', { message: 'What colour is it?' });
    expect(edited.status).toBe(200);
    const relisted = await h.json<Listed>(`/threads/${sent.body.thread_id}/messages`, 'GET');
    expect(relisted.body.data.find((m) => m.id === edited.body.user_message_id)?.images.map((i) => i.name)).toEqual(['dot.png', 'photo.png']);
    expect((await h.json(`/threads/${sent.body.thread_id}`, 'DELETE')).status).toBe(204);
    for (const id of [sent.body.user_message_id, edited.body.user_message_id]) expect(h.core.repos.messageImages.ofMessage(id)).toEqual([]);
  });
});
