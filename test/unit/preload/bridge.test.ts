import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IPC_INVOKE, IPC_PICK_FOLDER, IPC_STREAM_OPEN, IPC_STREAM_PORT, IPC_UPLOAD_PART, type StreamMessage } from '../../../shared/bridge.js';
import { createBridge, type BridgePort, type IpcRendererLike } from '../../../preload/bridge.js';

type PortListener = (event: { readonly ports: readonly BridgePort[] }, ...args: unknown[]) => void;

/** Electron's ipcRenderer as the bridge sees it: records sends, and lets the test play main. */
class FakeIpcRenderer implements IpcRendererLike {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly listeners = new Map<string, PortListener[]>();
  answer: (payload: unknown) => Promise<unknown> = async () => ({ ok: true, value: null });

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.answer(args[0]);
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  on(channel: string, listener: PortListener): void {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
  }
  /** Main's `event.sender.postMessage(IPC_STREAM_PORT, { stream_id }, [port])`. */
  deliverPort(streamId: string, port: BridgePort): void {
    for (const listener of this.listeners.get(IPC_STREAM_PORT) ?? []) listener({ ports: [port] }, { stream_id: streamId });
  }
  lastStreamId(): string {
    const payload = this.sent.at(-1)?.args[0] as { stream_id: string };
    return payload.stream_id;
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const closedPorts: MessagePort[] = [];
afterEach(() => {
  for (const port of closedPorts.splice(0)) port.close();
});

/** Node's port behind the DOM-style surface the preload gets (Node types it as a bare EventTarget). */
function domStyle(port: MessagePort): BridgePort {
  return {
    addEventListener: (_type, listener) => port.on('message', (data: unknown) => listener({ data })),
    start: () => port.start(),
    close: () => port.close(),
  };
}

/** A real channel: main keeps port1, the bridge gets port2; resolves when port1 sees a close. */
function channel() {
  const { port1, port2 } = new MessageChannel();
  closedPorts.push(port1, port2);
  const mainSideClosed = new Promise<void>((resolve) => port1.once('close', () => resolve()));
  return { main: port1, renderer: domStyle(port2), mainSideClosed };
}

describe('createBridge', () => {
  it('exposes kind, invoke, stream, uploadPart and pickFolder, and nothing else', () => {
    const bridge = createBridge(new FakeIpcRenderer());
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'kind', 'pickFolder', 'stream', 'uploadPart']);
    expect(bridge.kind).toBe('desktop');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('asks main for the folder dialog on its own channel and passes the chosen path through', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = async () => ({ ok: true, value: '/Users/ann/Notes' });
    expect(await createBridge(ipc).pickFolder('Follow a folder')).toEqual({ ok: true, value: '/Users/ann/Notes' });
    expect(ipc.invoked).toEqual([{ channel: IPC_PICK_FOLDER, args: ['Follow a folder'] }]);
  });

  it('invokes the one invoke channel with { operation, input } and passes the result through', async () => {
    const ipc = new FakeIpcRenderer();
    const result = { ok: false, error: { code: 'forbidden', title: 'Forbidden', detail: 'no', status: 403 } };
    ipc.answer = async () => result;
    const bridge = createBridge(ipc);
    await expect(bridge.invoke('admin.users.list', { limit: 5 })).resolves.toBe(result);
    expect(ipc.invoked).toEqual([{ channel: IPC_INVOKE, args: [{ operation: 'admin.users.list', input: { limit: 5 } }] }]);
  });

  it('sends an upload part on its own channel as the URL and the bytes themselves', async () => {
    const ipc = new FakeIpcRenderer();
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    const result = await createBridge(ipc).uploadPart('/api/uploads/upl_a/parts/art_b/1?size=3', bytes);
    expect(result).toEqual({ ok: true, value: null });
    expect(ipc.invoked).toEqual([{ channel: IPC_UPLOAD_PART, args: ['/api/uploads/upl_a/parts/art_b/1?size=3', bytes] }]);
    ipc.answer = () => Promise.reject(new Error("No handler registered for 'parley:upload-part'"));
    expect(await createBridge(ipc).uploadPart('/x', bytes)).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('answers unavailable instead of rejecting when main has no handler', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = () => Promise.reject(new Error("No handler registered for 'parley:invoke'"));
    const result = await createBridge(ipc).invoke('identity.me', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', status: 503 } });
  });

  it('opens a stream with a fresh id and delivers its messages in order, then closes on end', async () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    const received: StreamMessage[] = [];
    bridge.stream('chat.send', { message: 'hi' }, (m) => received.push(m));
    const first = ipc.lastStreamId();
    bridge.stream('chat.send', { message: 'again' }, () => {});
    expect(ipc.lastStreamId()).not.toBe(first);
    expect(ipc.sent[0]).toEqual({ channel: IPC_STREAM_OPEN, args: [{ stream_id: first, operation: 'chat.send', input: { message: 'hi' } }] });

    const { main, renderer, mainSideClosed } = channel();
    ipc.deliverPort(first, renderer);
    main.postMessage({ type: 'event', event: { delta: 'a' } });
    main.postMessage({ type: 'event', event: { delta: 'b' } });
    main.postMessage({ type: 'end' });
    await mainSideClosed;
    expect(received).toEqual([{ type: 'event', event: { delta: 'a' } }, { type: 'event', event: { delta: 'b' } }, { type: 'end' }]);
  });

  it('ignores a port meant for another stream', async () => {
    const ipc = new FakeIpcRenderer();
    const onMessage = vi.fn();
    createBridge(ipc).stream('chat.send', {}, onMessage);
    const { main, renderer } = channel();
    ipc.deliverPort('someone-else', renderer);
    main.postMessage({ type: 'end' });
    await tick();
    await tick();
    expect(onMessage).not.toHaveBeenCalled();
  });

  it('closes the port when the returned function is called, and delivers nothing after', async () => {
    const ipc = new FakeIpcRenderer();
    const received: StreamMessage[] = [];
    const close = createBridge(ipc).stream('chat.send', {}, (m) => received.push(m));
    const { main, renderer, mainSideClosed } = channel();
    ipc.deliverPort(ipc.lastStreamId(), renderer);
    main.postMessage({ type: 'event', event: 1 });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    close();
    await mainSideClosed;
    main.postMessage({ type: 'event', event: 2 });
    await tick();
    expect(received).toEqual([{ type: 'event', event: 1 }]);
  });

  it('closes a port that arrives after the stream was closed, without delivering from it', async () => {
    const ipc = new FakeIpcRenderer();
    const onMessage = vi.fn();
    const close = createBridge(ipc).stream('chat.send', {}, onMessage);
    close();
    const { main, renderer, mainSideClosed } = channel();
    ipc.deliverPort(ipc.lastStreamId(), renderer);
    main.postMessage({ type: 'event', event: 1 });
    await mainSideClosed;
    expect(onMessage).not.toHaveBeenCalled();
  });

  it('registers one port listener however many streams are open', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc);
    for (let i = 0; i < 20; i++) bridge.stream('chat.send', {}, () => {});
    expect(ipc.listeners.get(IPC_STREAM_PORT)).toHaveLength(1);
  });
});
