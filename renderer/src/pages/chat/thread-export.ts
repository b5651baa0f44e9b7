import type { IntlShape } from 'react-intl';
import { shownCitations } from '../../../../shared/citations.js';
import { client } from '../../api/index.js';
import { fileStem, saveFile } from '../../ui/save-file.js';
import { shownBranch } from './branches.js';
import type { Message, Thread } from './types.js';

export type ExportFormat = 'markdown' | 'json';

/** A passage's location as a reader would cite it: `page 3`, `lines 10–12`, else nothing. */
function where(location: Readonly<Record<string, string | number>>): string {
  return Object.entries(location)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

/** Text kept as one Markdown line: a snippet's line breaks would break the list item. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The conversation as the reader sees it (the branch shown by default: where it last went), as
 * Markdown: the title, then each message under who wrote it (the answering model named), and each
 * answer's sources as a numbered list matching its `[n]` markers.
 */
export function threadMarkdown(thread: Pick<Thread, 'title'>, messages: readonly Message[], modelName: (id: string) => string, intl: IntlShape): string {
  const out = [`# ${oneLine(thread.title)}`];
  for (const { message } of shownBranch(messages)) {
    const model = message.routing?.model_id ?? message.model_id;
    const who =
      message.role === 'user'
        ? intl.formatMessage({ id: 'chat.export.you' })
        : model
          ? intl.formatMessage({ id: 'chat.export.assistantModel' }, { model: modelName(model) })
          : intl.formatMessage({ id: 'chat.export.assistant' });
    out.push(`## ${who}`, message.content.trim());
    const sources = message.role === 'assistant' ? shownCitations(message.citations, message.content) : [];
    if (sources.length > 0) {
      out.push(
        `### ${intl.formatMessage({ id: 'chat.export.sources' })}`,
        sources
          .map((c) => {
            const at = where(c.location);
            return `${c.index}. **${oneLine(c.artifact_key)}**${at ? ` (${at})` : ''}: ${oneLine(c.snippet)}`;
          })
          .join('\n'),
      );
    }
  }
  return out.join('\n\n') + '\n';
}

/** The thread and every message (all branches), as the API returns them: for programs to read. */
export function threadJson(thread: Thread, messages: readonly Message[]): string {
  return JSON.stringify({ thread, messages }, null, 2) + '\n';
}

async function allMessages(threadId: string): Promise<Message[]> {
  const messages: Message[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: Message[]; next_cursor: string | null } = await client.call('threads.messages', { id: threadId, limit: 200, ...(cursor ? { cursor } : {}) });
    messages.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return messages;
}

/** Reads the thread and its messages afresh and saves them as a file in the format asked for. */
export async function exportThread(threadId: string, format: ExportFormat, intl: IntlShape): Promise<void> {
  const [thread, messages, models] = await Promise.all([client.call('threads.get', { id: threadId }), allMessages(threadId), client.call('models.list', {}).catch(() => null)]);
  const names = new Map((models?.data ?? []).map((m) => [m.id, m.name]));
  const stem = fileStem(thread.title, 'thread');
  if (format === 'json') saveFile(`${stem}.json`, threadJson(thread, messages), 'application/json');
  else saveFile(`${stem}.md`, threadMarkdown(thread, messages, (id) => names.get(id) ?? id, intl), 'text/markdown;charset=utf-8');
}
