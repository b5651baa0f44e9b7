import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useChatActions } from './actions.js';

/** The steps' arrows: glyphs, not words (each button is named by its aria-label). */
const PREVIOUS = '‹';
const NEXT = '›';

/** "2 / 3" on screen, "Version 2 of 3" to a screen reader: the catalogue marks which part is which. */
const COUNT_PARTS = {
  hidden: (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>,
  shown: (chunks: ReactNode[]) => <span aria-hidden="true">{chunks}</span>,
};

/** Where a message sits among its versions (see branches.ts). */
export interface VersionInfo {
  version: number;
  versions: string[];
  fork: string;
}

/**
 * "‹ 2 / 3 ›" on a message that has other versions (an edited question, a regenerated answer):
 * steps through them, each showing the conversation that went on from it. Waits, like every
 * other action, while an answer is written.
 */
export function VersionSwitcher({ info, kind }: { info: VersionInfo | undefined; kind: 'question' | 'answer' }) {
  const intl = useIntl();
  const { busy, switchVersion } = useChatActions();
  if (!info || info.versions.length < 2) return null;
  const { version, versions, fork } = info;
  const question = kind === 'question';
  const go = (to: number) => {
    const id = versions[to];
    if (id) switchVersion(fork, id);
  };
  return (
    <span className="version-switcher" role="group" aria-label={intl.formatMessage({ id: question ? 'chat.version.questionGroup' : 'chat.version.answerGroup' })}>
      <button type="button" className="msg-action version-step" aria-label={intl.formatMessage({ id: question ? 'chat.version.previousQuestion' : 'chat.version.previousAnswer' })} disabled={busy || version === 0} onClick={() => go(version - 1)}>
        {PREVIOUS}
      </button>
      <span className="version-count" aria-live="polite">
        <FormattedMessage id={question ? 'chat.version.countQuestion' : 'chat.version.countAnswer'} values={{ ...COUNT_PARTS, current: version + 1, total: versions.length }} />
      </span>
      <button type="button" className="msg-action version-step" aria-label={intl.formatMessage({ id: question ? 'chat.version.nextQuestion' : 'chat.version.nextAnswer' })} disabled={busy || version === versions.length - 1} onClick={() => go(version + 1)}>
        {NEXT}
      </button>
    </span>
  );
}
