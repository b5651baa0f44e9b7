import { useCallback, useEffect, useRef, useState } from 'react';
import { ServiceError } from '../../../../shared/errors.js';
import { client } from '../../api/index.js';
import { getIntl } from '../../i18n/intl.js';
import type { ChatStreamSignal } from '../../api/client.js';
import { errorText } from '../../ui/error-text.js';
import { toast } from '../../ui/toast.js';
import { threadFromHash, threadHref } from './chat-hash.js';
import { applyEvent, draftAnswer, type Message } from './types.js';
import { draftImages, type ChatImage } from './chat-images.js';
import { markAnswering } from './answering.js';

export type ConversationState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | { status: 'ready'; messages: Message[]; generating: boolean };

export interface SendOptions {
  message: string;
  modelOverride: string | null;
  /** Answer with an agent that shows its steps. */
  agentic?: boolean;
  datasetIds?: string[];
  /** A workflow (GET /workflows) the message is sent with; the thread remembers it. */
  workflowId?: string | null;
  /** The end of the branch on screen, which the message follows (default: the thread's newest message). */
  parentId?: string | null;
  /** Images for a model that reads them (`readChatImage`); shown with the message at once. */
  images?: readonly ChatImage[];
  /**
   * The service never took the message (it could not be reached, or refused the request): it is
   * taken off the screen again, and this hears why, so the text can go back where it was written.
   */
  onNotSent?: (error: ServiceError) => void;
}

type Open = (onSignal: (signal: ChatStreamSignal) => void) => () => void;

/**
 * Listens to the end of an answer whose thread is no longer shown: the answer goes on in the
 * service, and if it ends in an error while its thread is still not on screen, a toast says so.
 */
function endInBackground(signal: ChatStreamSignal, threadId: string | null): boolean {
  // The answer's end may be followed by its thread's new title: the stream is left to end by itself.
  if (signal.type === 'event' && signal.event.event === 'message.completed') return false;
  const failure = signal.type === 'error' ? signal.error : signal.type === 'event' && signal.event.event === 'error' ? new ServiceError(signal.event.data.code, signal.event.data.detail) : null;
  if (failure !== null && threadId !== null && threadFromHash(window.location.hash) !== threadId) {
    const intl = getIntl();
    toast.error(intl.formatMessage({ id: 'chat.background.failed' }), errorText(failure, intl), { label: intl.formatMessage({ id: 'chat.background.open' }), href: threadHref(threadId) });
  }
  return signal.type !== 'event' || signal.event.event === 'message.completed' || signal.event.event === 'error';
}

/** Pages of a thread, oldest first, until the last. A 10,000-message thread is 50 pages of 200. */
async function loadAllMessages(threadId: string, onPage: (messages: Message[]) => void): Promise<Message[]> {
  const all: Message[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await client.call('threads.messages', { id: threadId, limit: 200, ...(cursor ? { cursor } : {}) });
    all.push(...page.data);
    if (!page.next_cursor) return all;
    onPage(all.slice());
    cursor = page.next_cursor;
  }
}

/**
 * One thread's messages and the answer being written, if any. Sending streams the answer into the
 * list as it arrives; opening a thread whose last answer is still streaming (a reload mid-answer)
 * re-attaches to it from its first event, so the view rebuilds it the same way.
 */
export function useConversation(threadId: string | null, onThreadStarted: (threadId: string) => void, onThreadRenamed?: (threadId: string, title: string) => void) {
  const [state, setState] = useState<ConversationState>({ status: threadId ? 'loading' : 'idle' });
  const closeStream = useRef<(() => void) | null>(null);
  /** Stops the live stream from updating this view, leaving it to end in the background. */
  const detachStream = useRef<(() => void) | null>(null);
  /** The answer streaming now, for Stop. */
  const liveAnswerId = useRef<string | null>(null);
  /** A thread this hook created by sending: its messages are already here, not to be reloaded. */
  const startedHere = useRef<string | null>(null);
  /** Told a thread's new title, written after its first answer (the latest callback, not the first render's). */
  const renamed = useRef(onThreadRenamed);
  renamed.current = onThreadRenamed;
  /** The state last rendered, for what an action had on screen when it began. */
  const latest = useRef(state);
  latest.current = state;

  const updateAnswer = useCallback((answerId: string, change: (m: Message) => Message) => {
    setState((s) => {
      if (s.status !== 'ready') return s;
      const index = s.messages.findIndex((m) => m.id === answerId);
      if (index < 0) return s;
      const messages = s.messages.slice();
      messages[index] = change(messages[index] as Message);
      return { ...s, messages };
    });
  }, []);

  /** Follows a stream into the answer whose id is `answerId` now (a draft id until message.created). */
  const follow = useCallback(
    (answerId: string, thread: string | null, open: Open, onCreated?: (created: { thread_id: string; user_message_id: string }) => void, onRefused?: (error: ServiceError) => void) => {
      let currentId = answerId;
      let created = false;
      let threadOfAnswer = thread;
      let shown = true;
      let finished = false;
      // The thread list marks the thread answering until the answer ends, here or in the background.
      let unmark: (() => void) | null = thread ? markAnswering(thread) : null;
      const stopMarking = () => {
        unmark?.();
        unmark = null;
      };
      liveAnswerId.current = answerId.startsWith('msg_') ? answerId : null;
      setState((s) => (s.status === 'ready' ? { ...s, generating: true } : s));
      // Once: the stream may go on after the answer's end (its thread's title), past the start of the next answer.
      const finish = () => {
        if (finished) return;
        finished = true;
        stopMarking();
        liveAnswerId.current = null;
        closeStream.current = null;
        detachStream.current = null;
        setState((s) => (s.status === 'ready' ? { ...s, generating: false } : s));
      };
      const close = open((signal) => {
        if (signal.type === 'event' && signal.event.event === 'message.created') {
          threadOfAnswer = signal.event.data.thread_id;
          unmark ??= markAnswering(threadOfAnswer);
        }
        if (signal.type === 'event' && signal.event.event === 'thread.updated') {
          renamed.current?.(signal.event.data.thread_id, signal.event.data.title);
          return;
        }
        if (!shown) {
          if (signal.type !== 'event' || signal.event.event === 'message.completed' || signal.event.event === 'error') stopMarking();
          if (endInBackground(signal, threadOfAnswer)) close();
          return;
        }
        if (signal.type === 'event') {
          const event = signal.event;
          const before = currentId;
          if (event.event === 'message.created') {
            created = true;
            currentId = event.data.message_id;
            liveAnswerId.current = currentId;
            onCreated?.(event.data);
          }
          updateAnswer(before, (m) => applyEvent(m, event));
          if (event.event === 'message.completed' || event.event === 'error') finish();
          return;
        }
        if (signal.type === 'error') {
          const error: ServiceError = signal.error;
          // Refused before the service stored anything: there is no answer to mark, nor to retry.
          if (!created && onRefused) {
            onRefused(error);
            finish();
            return;
          }
          updateAnswer(currentId, (m) => ({ ...m, status: 'error', error: { code: error.code, detail: error.message } }));
        }
        finish();
      });
      // Stop closes the stream without a last signal: the answer is over all the same.
      closeStream.current = () => {
        close();
        stopMarking();
      };
      detachStream.current = () => {
        shown = false;
        closeStream.current = null;
        detachStream.current = null;
        liveAnswerId.current = null;
      };
    },
    [updateAnswer],
  );

  // Leaving the page (a new chat included, whose thread the effect below does not own yet) leaves
  // the answer to end in the background rather than steer the window back to its thread.
  useEffect(() => () => detachStream.current?.(), []);

  useEffect(() => {
    // The thread a send just created keeps its live stream and the messages already shown.
    if (threadId !== null && startedHere.current === threadId) return;
    detachStream.current?.();
    if (!threadId) {
      // Left for a new chat: the thread started here is read again if it is opened again (from the list, a search).
      startedHere.current = null;
      setState({ status: 'idle' });
      return;
    }
    startedHere.current = null;
    let cancelled = false;
    setState({ status: 'loading' });
    loadAllMessages(threadId, (partial) => {
      if (!cancelled) setState({ status: 'ready', messages: partial, generating: false });
    }).then(
      (messages) => {
        if (cancelled) return;
        setState({ status: 'ready', messages, generating: false });
        const last = messages.at(-1);
        if (last?.role === 'assistant' && last.status === 'streaming') {
          // Replayed from its first event onto an empty answer, so nothing is counted twice.
          updateAnswerReset(last.id);
          follow(last.id, threadId, (onSignal) => client.streamChat('chat.stream', { message_id: last.id }, {}, onSignal));
        }
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'error', error: errorText(error) });
      },
    );
    function updateAnswerReset(id: string) {
      setState((s) => (s.status === 'ready' ? { ...s, messages: s.messages.map((m) => (m.id === id ? { ...m, content: '', citations: [], thoughts: [] } : m)) } : s));
    }
    return () => {
      cancelled = true;
      detachStream.current?.();
    };
  }, [threadId, follow]);

  const send = useCallback(
    ({ message, modelOverride, agentic, datasetIds, workflowId, parentId, images, onNotSent }: SendOptions) => {
      // Only a stored message can be followed (a draft has no id the service knows yet).
      const follows = threadId && parentId?.startsWith('msg_') ? parentId : null;
      const draftUser = `draft-user-${Date.now()}`;
      const draftAnswerId = `draft-answer-${Date.now()}`;
      const now = new Date().toISOString();
      setState((s) => {
        const messages = s.status === 'ready' ? s.messages : [];
        const userMessage: Message = {
          ...draftAnswer(threadId ?? '', draftUser, follows ?? messages.at(-1)?.id ?? null),
          role: 'user',
          content: message,
          status: 'complete',
          images: draftImages(images ?? []),
          created_at: now,
        };
        return { status: 'ready', generating: true, messages: [...messages, userMessage, draftAnswer(threadId ?? '', draftAnswerId, draftUser)] };
      });
      const input = {
        message,
        stream: true,
        ...(threadId ? { thread_id: threadId } : {}),
        ...(follows ? { parent_id: follows } : {}),
        ...(modelOverride ? { model_endpoint_override: modelOverride } : {}),
        ...(agentic ? { agentic: true } : {}),
        ...(datasetIds && datasetIds.length > 0 ? { dataset_ids: datasetIds } : {}),
        ...(workflowId ? { workflow_id: workflowId } : {}),
        ...(images && images.length > 0 ? { images: images.map(({ name, media_type, data }) => ({ name, media_type, data })) } : {}),
      };
      follow(
        draftAnswerId,
        threadId,
        (onSignal) => client.streamChat('chat.send', input, {}, onSignal),
        (created) => {
          setState((s) => (s.status === 'ready' ? { ...s, messages: s.messages.map((m) => (m.id === draftUser ? { ...m, id: created.user_message_id, thread_id: created.thread_id } : m.parent_id === draftUser ? { ...m, parent_id: created.user_message_id } : m)) } : s));
          if (created.thread_id !== threadId) {
            startedHere.current = created.thread_id;
            onThreadStarted(created.thread_id);
          }
        },
        (error) => {
          setState((s) => {
            if (s.status !== 'ready') return s;
            const messages = s.messages.filter((m) => m.id !== draftUser && m.id !== draftAnswerId);
            // A new chat goes back to its empty state, as it was before the send.
            return messages.length === 0 && !threadId ? { status: 'idle' } : { ...s, messages };
          });
          onNotSent?.(error);
        },
      );
    },
    [threadId, follow, onThreadStarted],
  );

  /** A new answer to an earlier answer's question, added after the newest message; the old one stays. */
  const regenerate = useCallback(
    (answerId: string, modelOverride: string | null) => {
      if (!threadId) return;
      const draftId = `draft-answer-${Date.now()}`;
      setState((s) => {
        if (s.status !== 'ready') return s;
        const question = s.messages.find((m) => m.id === answerId)?.parent_id ?? null;
        return { ...s, messages: [...s.messages, draftAnswer(threadId, draftId, question)] };
      });
      const input = { message_id: answerId, stream: true, ...(modelOverride ? { model_endpoint_override: modelOverride } : {}) };
      follow(draftId, threadId, (onSignal) => client.streamChat('chat.regenerate', input, {}, onSignal));
    },
    [threadId, follow],
  );

  /** A new version of one of the user's messages, and its answer, added after the newest message. */
  const edit = useCallback(
    (messageId: string, text: string, modelOverride: string | null, agentic: boolean) => {
      if (!threadId) return;
      const draftUser = `draft-user-${Date.now()}`;
      const draftId = `draft-answer-${Date.now()}`;
      setState((s) => {
        if (s.status !== 'ready') return s;
        const parent = s.messages.find((m) => m.id === messageId)?.parent_id ?? null;
        const question: Message = { ...draftAnswer(threadId, draftUser, parent), role: 'user', content: text, status: 'complete' };
        return { ...s, messages: [...s.messages, question, draftAnswer(threadId, draftId, draftUser)] };
      });
      const input = { message_id: messageId, message: text, stream: true, ...(modelOverride ? { model_endpoint_override: modelOverride } : {}), ...(agentic ? { agentic: true } : {}) };
      follow(
        draftId,
        threadId,
        (onSignal) => client.streamChat('chat.edit', input, {}, onSignal),
        (created) =>
          setState((s) =>
            s.status === 'ready'
              ? { ...s, messages: s.messages.map((m) => (m.id === draftUser ? { ...m, id: created.user_message_id } : m.parent_id === draftUser ? { ...m, parent_id: created.user_message_id } : m)) }
              : s,
          ),
      );
    },
    [threadId, follow],
  );

  /**
   * The answer that stopped early streams again in place: its kept text first, then the rest. The
   * model that wrote it goes on (the service's default), not the picker's: another only when named.
   */
  const continueAnswer = useCallback(
    (answerId: string, modelOverride: string | null = null) => {
      if (!threadId) return;
      const shown = latest.current;
      const kept = shown.status === 'ready' ? shown.messages.find((m) => m.id === answerId) : undefined;
      updateAnswer(answerId, (m) => ({ ...m, status: 'streaming', error: null }));
      const input = { message_id: answerId, stream: true, ...(modelOverride ? { model_endpoint_override: modelOverride } : {}) };
      follow(
        answerId,
        threadId,
        (onSignal) =>
          client.streamChat('chat.continue', input, {}, (signal) => {
            // The stream rebuilds the whole message (kept text first), so the kept text is cleared only
            // once the service has taken it up: a Continue that fails before that leaves it on screen.
            if (signal.type === 'event' && signal.event.event === 'message.created') updateAnswer(answerId, (m) => ({ ...m, content: '', citations: [] }));
            onSignal(signal);
          }),
        undefined,
        (error) => {
          // Not taken up (the service out of reach, or refusing): the answer is as the service keeps it.
          if (kept) updateAnswer(answerId, () => kept);
          const intl = getIntl();
          toast.error(intl.formatMessage({ id: 'chat.continue.failed' }), errorText(error, intl));
        },
      );
    },
    [threadId, follow, updateAnswer],
  );

  /** Stops the answer; the text written so far stays, marked cancelled. */
  const stop = useCallback(async () => {
    const id = liveAnswerId.current;
    if (!id) return;
    try {
      const { message } = await client.call('chat.cancel', { message_id: id });
      closeStream.current?.();
      closeStream.current = null;
      liveAnswerId.current = null;
      updateAnswer(id, (m) => ({ ...message, content: message.content.length >= m.content.length ? message.content : m.content }));
      setState((s) => (s.status === 'ready' ? { ...s, generating: false } : s));
    } catch {
      // The answer finished meanwhile; its stream says how.
    }
  }, [updateAnswer]);

  return { state, send, stop, regenerate, edit, continueAnswer };
}
