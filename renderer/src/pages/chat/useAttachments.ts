import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';
import { failureText } from '../datasets/ArtifactStatus.js';
import { uploadFiles, type FileUpload } from '../datasets/upload.js';
import { withFreeNames } from './attachment-names.js';
import { isInFlight } from '../datasets/useArtifacts.js';
import type { UploadLimits } from '../datasets/useUploadLimits.js';
import { MAX_CHAT_IMAGES, readChatImage, type ChatImage } from './chat-images.js';

type ThreadFiles = OutputOf<Operations['threads.files']>;

/** A file attached in the composer: a document on its way into the thread's own files, or an image to send with the message. */
export interface Attachment {
  id: string;
  name: string;
  size: number;
  kind: 'document' | 'image';
  /** `sending`: bytes going up; `reading`: the service processes it; `ready`: it can be asked about; `failed`: see `error`. */
  state: 'sending' | 'reading' | 'ready' | 'failed';
  /** 0 to 1 within the state. */
  progress: number;
  error: string | null;
  /** Its key in the thread's files, once it has one. */
  key: string | null;
  image: ChatImage | null;
}

export interface Attachments {
  items: readonly Attachment[];
  /** Whether any attachment is still on its way (sending or being read). */
  busy: boolean;
  /** Whether any attachment failed: the message waits until it is removed. */
  failed: boolean;
  add: (files: readonly File[]) => void;
  remove: (id: string) => void;
  /** The images to send with the message; every chip goes (the documents stay in the thread's files). */
  take: () => ChatImage[];
}

const POLL_MS = 1000;
let counter = 0;

/** Whether the composer sends `file` to the model as an image rather than into the thread's files. */
const isImage = (file: File) => file.type.startsWith('image/');

/**
 * The files attached to the next message of a thread. Documents go into the thread's own dataset
 * (`threads.files`, made on the first attach; `ensureThread` makes the thread first in a new chat)
 * through the Datasets page's uploader, and are followed until the service has read them; images
 * are read here to go with the message. Another thread's chips go when the thread changes.
 */
export function useAttachments(threadId: string | null, ensureThread: () => Promise<string>, limits: UploadLimits | null): Attachments {
  const intl = useIntl();
  const [items, setItems] = useState<Attachment[]>([]);
  const itemsNow = useRef(items);
  itemsNow.current = items;
  /** The thread the chips belong to (set before its page opens, when a new chat made it). */
  const owner = useRef<string | null>(threadId);
  const files = useRef<{ thread: string; dataset: ThreadFiles } | null>(null);
  /** The thread's files being found (or the thread made): files attached meanwhile wait for the same. */
  const finding = useRef<Promise<ThreadFiles> | null>(null);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    if (threadId === owner.current) return;
    owner.current = threadId;
    finding.current = null;
    setItems([]);
  }, [threadId]);

  const patch = useCallback((id: string, change: Partial<Attachment>) => {
    if (live.current) setItems((all) => all.map((a) => (a.id === id ? { ...a, ...change } : a)));
  }, []);

  /** Follows documents the service is reading until each is ready or failed. */
  const follow = useCallback(
    (kbId: string, chips: ReadonlyArray<{ id: string; key: string }>) => {
      let waiting = [...chips];
      const tick = async () => {
        const still: typeof waiting = [];
        for (const chip of waiting) {
          try {
            const artifact = await client.call('artifacts.get', { kb_id: kbId, key: chip.key });
            if (isInFlight(artifact)) {
              patch(chip.id, { state: 'reading', progress: artifact.status === 'processing' ? artifact.progress : 0 });
              still.push(chip);
            } else if (artifact.status === 'ready') patch(chip.id, { state: 'ready', progress: 1 });
            else patch(chip.id, { state: 'failed', error: failureText(intl, artifact) });
          } catch (error) {
            patch(chip.id, { state: 'failed', error: errorText(error, intl) });
          }
        }
        waiting = still;
        if (waiting.length > 0 && live.current) window.setTimeout(() => void tick(), POLL_MS);
      };
      void tick();
    },
    [intl, patch],
  );

  const addDocuments = useCallback(
    async (docs: readonly File[], chips: readonly Attachment[]) => {
      let kb: string;
      let taken: Set<string>;
      try {
        finding.current ??= (async () => {
          const thread = await ensureThread();
          owner.current = thread;
          if (files.current?.thread !== thread) files.current = { thread, dataset: await client.call('threads.files', { id: thread }) };
          return files.current.dataset;
        })();
        const found = finding.current;
        // A failure is not kept: the next attach tries again.
        void found.catch(() => {
          if (finding.current === found) finding.current = null;
        });
        kb = (await found).kb_id;
        const present = await client.call('artifacts.list', { kb_id: kb, limit: 200, order: 'newest' });
        taken = new Set(present.data.map((a) => a.key));
      } catch (error) {
        for (const chip of chips) patch(chip.id, { state: 'failed', error: errorText(error, intl) });
        return;
      }
      const named = withFreeNames(docs, taken);
      // One upload per file: a name or a size the service refuses fails that chip alone.
      await Promise.all(
        named.map(async (file, i) => {
          const chip = chips[i];
          if (!chip) return;
          patch(chip.id, { name: file.name });
          let last: FileUpload | undefined;
          const onProgress = ([u]: FileUpload[]) => {
            last = u;
            if (!u) return;
            if (u.state === 'sending') patch(chip.id, { key: u.key, progress: u.size === 0 ? 0 : u.sent / u.size });
            else if (u.state === 'refused' || u.state === 'failed') patch(chip.id, { key: u.key, state: 'failed', error: u.error });
            else patch(chip.id, { key: u.key, state: 'reading', progress: 0 });
          };
          try {
            await uploadFiles(kb, [file], onProgress, intl, limits);
          } catch (error) {
            return patch(chip.id, { state: 'failed', error: errorText(error, intl) });
          }
          const sent = last as FileUpload | undefined;
          if (sent?.state !== 'sent') return;
          // Taken back while its bytes were going up: it leaves the thread's files now that it is there.
          if (!itemsNow.current.some((a) => a.id === chip.id)) return void client.call('artifacts.delete', { kb_id: kb, key: sent.key }).catch(() => undefined);
          follow(kb, [{ id: chip.id, key: sent.key }]);
        }),
      );
    },
    [ensureThread, follow, intl, limits, patch],
  );

  const add = useCallback(
    (picked: readonly File[]) => {
      const chipOf = (file: File, kind: Attachment['kind']): Attachment => ({
        id: `att-${++counter}`,
        name: file.name.trim() || 'file',
        size: file.size,
        kind,
        state: kind === 'image' ? 'reading' : 'sending',
        progress: 0,
        error: null,
        key: null,
        image: null,
      });
      const images = picked.filter(isImage);
      const docs = picked.filter((f) => !isImage(f));
      const imageChips = images.map((f) => chipOf(f, 'image'));
      const docChips = docs.map((f) => chipOf(f, 'document'));
      const imagesBefore = itemsNow.current.filter((a) => a.kind === 'image').length;
      setItems((all) => [...all, ...docChips, ...imageChips]);
      images.forEach((file, i) => {
        const chip = imageChips[i];
        if (!chip) return;
        if (imagesBefore + i >= MAX_CHAT_IMAGES) return patch(chip.id, { state: 'failed', error: intl.formatMessage({ id: 'chat.attach.tooManyImages' }, { max: MAX_CHAT_IMAGES }) });
        readChatImage(file, intl).then(
          (image) => patch(chip.id, { state: 'ready', progress: 1, image }),
          (error: unknown) => patch(chip.id, { state: 'failed', error: errorText(error, intl) }),
        );
      });
      if (docs.length > 0) void addDocuments(docs, docChips);
    },
    [addDocuments, intl, patch],
  );

  const remove = useCallback(
    (id: string) => {
      const chip = items.find((a) => a.id === id);
      setItems((all) => all.filter((a) => a.id !== id));
      // Out of the thread's files too: a file taken back is not one to answer from.
      const kb = files.current?.dataset.kb_id;
      if (chip?.kind === 'document' && chip.key && kb) void client.call('artifacts.delete', { kb_id: kb, key: chip.key }).catch(() => undefined);
    },
    [items],
  );

  const take = useCallback(() => {
    const images = items.flatMap((a) => (a.image ? [a.image] : []));
    setItems([]);
    return images;
  }, [items]);

  return {
    items,
    busy: items.some((a) => a.state === 'sending' || a.state === 'reading'),
    failed: items.some((a) => a.state === 'failed'),
    add,
    remove,
    take,
  };
}

/** A chip's state in words, with how far it got. */
export function attachmentStatus(intl: IntlShape, a: Attachment): string {
  switch (a.state) {
    case 'sending':
      return intl.formatMessage({ id: 'chat.attach.sending' }, { progress: a.progress });
    case 'reading':
      return a.progress > 0 ? intl.formatMessage({ id: 'chat.attach.readingProgress' }, { progress: a.progress }) : intl.formatMessage({ id: 'chat.attach.reading' });
    case 'ready':
      return intl.formatMessage({ id: a.kind === 'image' ? 'chat.attach.readyImage' : 'chat.attach.ready' });
    case 'failed':
      return a.error ?? intl.formatMessage({ id: 'chat.attach.failed' });
  }
}
