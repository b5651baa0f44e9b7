import { useChatActions } from './actions.js';

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
  const { busy, switchVersion } = useChatActions();
  if (!info || info.versions.length < 2) return null;
  const { version, versions, fork } = info;
  const noun = kind === 'question' ? 'version' : 'answer';
  const go = (to: number) => {
    const id = versions[to];
    if (id) switchVersion(fork, id);
  };
  return (
    <span className="version-switcher" role="group" aria-label={`${kind === 'question' ? 'Versions of this message' : 'Answers to this message'}`}>
      <button type="button" className="msg-action version-step" aria-label={`Previous ${noun}`} disabled={busy || version === 0} onClick={() => go(version - 1)}>
        ‹
      </button>
      <span className="version-count" aria-live="polite">
        <span className="visually-hidden">{kind === 'question' ? 'Version' : 'Answer'} </span>
        {version + 1}
        <span aria-hidden="true"> / </span>
        <span className="visually-hidden"> of </span>
        {versions.length}
      </span>
      <button type="button" className="msg-action version-step" aria-label={`Next ${noun}`} disabled={busy || version === versions.length - 1} onClick={() => go(version + 1)}>
        ›
      </button>
    </span>
  );
}
