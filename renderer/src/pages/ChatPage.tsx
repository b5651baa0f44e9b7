import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../api/index.js';
import { useHashRoute } from '../app/routes.js';
import type { Me } from '../app/session.js';
import type { ServiceError } from '../../../shared/errors.js';
import { Alert } from '../ui/Alert.js';
import { errorText } from '../ui/error-text.js';
import { Skeleton } from '../ui/Skeleton.js';
import { useLoader } from '../ui/useLoader.js';
import { messageFromHash, threadFromHash, threadHref } from './chat/chat-hash.js';
import { markWords } from './datasets/search-marks.js';
import { AgentToggle } from './chat/AgentToggle.js';
import { Composer } from './chat/Composer.js';
import { TrialCallsLeft } from './chat/TrialCallsLeft.js';
import { DatasetPicker } from './chat/DatasetPicker.js';
import { Home } from './chat/Home.js';
import { loadMarkdownRenderer } from './chat/Markdown.js';
import { MessageList } from './chat/MessageList.js';
import { ModelPicker } from './chat/ModelPicker.js';
import { ChatSettings, type ChatSettingsValue } from './chat/ChatSettings.js';
import { ThreadDrawer } from './chat/ThreadDrawer.js';
import { ThreadList } from './chat/ThreadList.js';
import type { Model } from './chat/types.js';
import { useConversation } from './chat/useConversation.js';
import { ChatActionsContext, type ChatActions } from './chat/actions.js';
import { WorkflowPicker } from './chat/WorkflowPicker.js';
import { takeChatWithDatasets } from './chat/chat-with.js';
import { useThreads } from './chat/useThreads.js';
import { useAnsweringThreads } from './chat/answering.js';
import { useAttachments } from './chat/useAttachments.js';
import { CHAT_IMAGE_ACCEPT, type ChatImage } from './chat/chat-images.js';
import { acceptOf, useUploadLimits } from './datasets/useUploadLimits.js';
import { shownBranch } from './chat/branches.js';
import type { Message } from './chat/types.js';

const NO_MESSAGES: Message[] = [];

/** What the pickers offer: models, this workspace's endpoint overrides and the datasets. */
function usePickerData(me: Me) {
  return useLoader(async () => {
    const [models, overrides, datasets, workflows] = await Promise.all([
      client.call('models.list', {}),
      client.call('overrides.list', { workspace_id: me.workspace.id }).catch(() => ({ data: [] })),
      client.call('datasets.list', { limit: 200 }).catch(() => ({ data: [], next_cursor: null })),
      client.call('workflows.list', {}).catch(() => ({ data: [] })),
    ]);
    return { models: models.data, overrides: overrides.data, datasets: datasets.data, workflows: workflows.data };
  });
}

export function ChatPage({ me }: { me: Me }) {
  const intl = useIntl();
  const { hash } = useHashRoute();
  const threadId = threadFromHash(hash);
  const threads = useThreads();
  /** Threads whose answer is being written, this one or others left to end in the background. */
  const answering = useAnsweringThreads();
  // A thread opened from a search result: its message found, with the words searched.
  const hitMessage = messageFromHash(hash);
  const searchHit = useMemo(() => (hitMessage ? { messageId: hitMessage, words: markWords(threads.query) } : null), [hitMessage, threads.query]);
  const pickers = usePickerData(me);
  const [model, setModel] = useState<string | null>(null);
  /** Agent mode: answers plan, search and read the datasets first, and show those steps. */
  const [agentic, setAgentic] = useState(false);
  /** The datasets of a chat not started yet; a thread keeps its own. */
  const [newChatDatasets, setNewChatDatasets] = useState<string[]>(takeChatWithDatasets);
  const [threadDatasets, setThreadDatasets] = useState<string[]>([]);
  /** The workflow the next message goes with; a thread remembers its own. */
  const [workflow, setWorkflow] = useState<string | null>(null);
  /** The last message the service never took, and why: its text is back in the box. */
  const [notSent, setNotSent] = useState<{ text: string; error: ServiceError } | null>(null);
  /** Counts the messages sent, so that open popovers close on send. */
  const [sent, setSent] = useState(0);

  /** The datasets a new chat was started with: they become the new thread's own. */
  const startedWith = useRef<string[]>([]);
  /** A thread started here: its datasets are known, and a read racing the update must not undo them. */
  const startedThread = useRef<string | null>(null);
  const onThreadStarted = useCallback(
    (id: string) => {
      const datasets = startedWith.current;
      startedWith.current = [];
      startedThread.current = id;
      setThreadDatasets(datasets);
      if (datasets.length > 0) {
        void client.call('threads.update', { id, dataset_ids: datasets }).catch(() => undefined);
      }
      window.location.hash = threadHref(id);
      threads.reload();
    },
    [threads.reload],
  );
  // A thread named after its first answer: the list is read again (a read begun before the name was written is dropped).
  const conversation = useConversation(threadId, onThreadStarted, threads.reload);
  /** A new chat's first attachment (or its settings) needs a thread for its home: made here, and the chat goes on in it. */
  const ensureThread = useCallback(async (settings: Partial<ChatSettingsValue> = {}) => {
    if (threadId) return threadId;
    const created = await client.call('threads.create', settings);
    startedWith.current = newChatDatasets;
    onThreadStarted(created.id);
    return created.id;
  }, [threadId, newChatDatasets, onThreadStarted]);
  const uploadLimits = useUploadLimits();
  const attachments = useAttachments(threadId, ensureThread, uploadLimits);
  const { state } = conversation;
  /**
   * The versions the reader picked at forks, for the message count they were picked at: a new
   * message (sent, edited, regenerated) is the newest, and the default branch — the one leading to
   * the newest message — shows it, so older picks lapse then.
   */
  const [choices, setChoices] = useState<{ thread: string | null; count: number; picked: ReadonlyMap<string, string> }>({ thread: null, count: 0, picked: new Map() });
  const allMessages = state.status === 'ready' ? state.messages : NO_MESSAGES;
  const shown = useMemo(
    () => shownBranch(allMessages, choices.thread === threadId && choices.count === allMessages.length ? choices.picked : undefined),
    [allMessages, choices, threadId],
  );
  const generating = state.status === 'ready' && state.generating;

  // A thread that was just answered, here or in the background, moves to the top of the list (newest first by last activity).
  const reloadThreads = threads.reload;
  useEffect(() => {
    if (!generating) reloadThreads();
  }, [generating, reloadThreads, answering]);

  // As every page does (ui/Page.tsx): the title, and focus on the heading so navigation is announced.
  const heading = useRef<HTMLHeadingElement>(null);
  const documentTitle = intl.formatMessage({ id: 'chat.page.documentTitle' });
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);

  // A failed send belongs to the chat it was written in.
  useEffect(() => setNotSent(null), [threadId]);

  // The answer's renderer is fetched now, while the service is surely there, not with the first answer.
  useEffect(() => void loadMarkdownRenderer().catch(() => undefined), []);

  // A new chat starts as the first one did: Auto and no workflow, whatever the last chat used.
  useEffect(() => {
    if (threadId !== null) return;
    setModel(null);
    setWorkflow(null);
  }, [threadId]);

  /** Picking a workflow hands the model to it; a model picked after it answers instead. */
  const pickWorkflow = (id: string | null) => {
    setWorkflow(id);
    setModel(null);
  };

  useEffect(() => {
    if (!threadId) {
      setThreadDatasets([]);
      return;
    }
    if (startedThread.current === threadId) return;
    let cancelled = false;
    client.call('threads.get', { id: threadId }).then(
      (thread) => {
        if (cancelled) return;
        setThreadDatasets(thread.dataset_ids);
        setWorkflow(thread.workflow_id);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [threadId]);

  const models = useMemo(() => new Map<string, Model>((pickers.state.status === 'ready' ? pickers.state.data.models : []).map((m) => [m.id, m])), [pickers.state]);
  const datasetIds = threadId ? threadDatasets : newChatDatasets;
  const setDatasets = (ids: string[]) => {
    if (!threadId) return setNewChatDatasets(ids);
    setThreadDatasets(ids);
    void client.call('threads.update', { id: threadId, dataset_ids: ids }).catch(() => undefined);
  };

  const send = (text: string, datasets: string[] = datasetIds, images: ChatImage[] = []) => {
    if (!threadId) startedWith.current = datasets;
    setNotSent(null);
    conversation.send({
      message: text,
      modelOverride: model,
      agentic,
      datasetIds: threadId ? undefined : datasets,
      workflowId: workflow,
      parentId: shown.at(-1)?.message.id ?? null,
      ...(images.length > 0 ? { images } : {}),
      onNotSent: (error) => {
        if (!threadId) setNewChatDatasets(datasets);
        setNotSent({ text, error });
      },
    });
    setSent((n) => n + 1);
    if (!threadId) setNewChatDatasets([]);
  };

  const data = pickers.state.status === 'ready' ? pickers.state.data : { models: [], overrides: [], datasets: [], workflows: [] };
  const { regenerate, edit, continueAnswer } = conversation;
  const actions = useMemo<ChatActions>(
    () => ({
      busy: generating,
      models: data.models,
      regenerate: (answerId, chosen) => {
        regenerate(answerId, chosen ?? model);
        setSent((n) => n + 1);
      },
      // The model that wrote the answer finishes it, whatever the picker shows now.
      continueAnswer: (answerId) => continueAnswer(answerId),
      edit: (messageId, text) => {
        edit(messageId, text, model, agentic);
        setSent((n) => n + 1);
      },
      switchVersion: (fork, messageId) =>
        setChoices((was) => {
          const keep = was.thread === threadId && was.count === allMessages.length;
          const picked = new Map(keep ? was.picked : []);
          picked.set(fork, messageId);
          return { thread: threadId, count: allMessages.length, picked };
        }),
    }),
    [generating, data.models, regenerate, continueAnswer, edit, model, agentic, threadId, allMessages.length],
  );
  const showHome = !threadId && state.status !== 'ready';

  return (
    <div className="chat-page">
      <h1 ref={heading} className="visually-hidden" tabIndex={-1}>
        <FormattedMessage id="chat.page.heading" />
      </h1>
      <ThreadDrawer
        title={threadId ? (threads.threads?.find((t) => t.id === threadId)?.title ?? intl.formatMessage({ id: 'chat.page.threadFallbackTitle' })) : intl.formatMessage({ id: 'chat.page.newChat' })}
        onNewChat={threadId ? () => (window.location.hash = threadHref(null)) : undefined}
      >
          <ThreadList
          threads={threads.threads}
          error={threads.error}
          selected={threadId}
          query={threads.query}
          onQuery={threads.setQuery}
          onRename={threads.rename}
          onDelete={async (id) => {
            await threads.remove(id);
            if (id === threadId) window.location.hash = threadHref(null);
          }}
          answering={answering}
        />
      </ThreadDrawer>
      <div className="chat-main">
        {showHome ? (
          <Home onPrompt={(prompt, datasetId) => send(prompt, datasetId ? [datasetId] : newChatDatasets)} onDataset={(id) => setNewChatDatasets((ids) => (ids.includes(id) ? ids.filter((d) => d !== id) : [...ids, id]))} selectedDatasets={newChatDatasets} models={pickers.state.status === 'ready' ? pickers.state.data.models : null} modelsSettled={pickers.state.status !== 'loading'} canManageModels={me.user.role === 'admin' || me.user.role === 'super_admin'} onModelAdded={pickers.reload} />
        ) : state.status === 'loading' ? (
          <div className="chat-loading">
            <Skeleton shape="messages" label={intl.formatMessage({ id: 'chat.page.loadingMessages' })} />
          </div>
        ) : state.status === 'error' ? (
          <div className="chat-loading">
            <Alert tone="error" title={intl.formatMessage({ id: 'chat.page.loadFailed' })}>
              {state.error}
            </Alert>
          </div>
        ) : state.status === 'ready' ? (
          <ChatActionsContext.Provider value={actions}>
            <MessageList shown={shown} models={models} hit={searchHit} />
          </ChatActionsContext.Provider>
        ) : null}
        {notSent ? (
          <div className="chat-not-sent">
            <Alert tone="error" title={intl.formatMessage({ id: 'chat.notSent.title' })}>
              {notSent.error.code === 'unavailable' ? intl.formatMessage({ id: 'chat.notSent.unreachable' }) : errorText(notSent.error, intl)}
            </Alert>
          </div>
        ) : null}
        <Composer
          restore={notSent}
          generating={generating}
          onSend={(text, images) => send(text, undefined, images)}
          attachments={{ files: attachments, accept: uploadLimits ? `${acceptOf(uploadLimits)},${CHAT_IMAGE_ACCEPT}` : undefined }}
          onStop={() => void conversation.stop()}
          tools={
            <>
              <ModelPicker models={data.models} overrides={data.overrides} value={model} onChange={setModel} disabled={generating} workflow={data.workflows.find((w) => w.id === workflow) ?? null} />
              <ChatSettings threadId={threadId} disabled={generating} startThread={ensureThread} />
              <AgentToggle value={agentic} onChange={setAgentic} disabled={generating} />
              <DatasetPicker datasets={data.datasets} value={pickers.state.status === 'ready' ? datasetIds.filter((id) => data.datasets.some((d) => d.id === id)) : datasetIds} onChange={setDatasets} disabled={generating} closeWhen={sent} />
              <WorkflowPicker workflows={data.workflows} value={workflow} onChange={pickWorkflow} disabled={generating} />
              <TrialCallsLeft generating={generating} />
            </>
          }
        />
      </div>
    </div>
  );
}
