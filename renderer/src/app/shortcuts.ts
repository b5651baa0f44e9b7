import { useEffect } from 'react';
import type { MessageId } from '../i18n/catalogues/index.js';
import { hrefOf } from './routes.js';

/** The chat's message box (pages/chat/Composer.tsx). */
const COMPOSER_ID = 'composer-input';

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The app-wide shortcuts: `keys` and `what` as shown to people (message ids: key names are
 * worded per language too, Strg in German), `aria` as `aria-keyshortcuts` names them.
 */
export const SHORTCUTS: Readonly<Record<'newChat' | 'focusComposer', { keys: MessageId; aria: string; what: MessageId }>> = {
  newChat: { keys: IS_MAC ? 'app.shortcuts.newChat.keysMac' : 'app.shortcuts.newChat.keys', aria: IS_MAC ? 'Meta+Shift+O' : 'Control+Shift+O', what: 'app.shortcuts.newChat.what' },
  focusComposer: { keys: 'app.shortcuts.focusComposer.keys', aria: 'Shift+Escape /', what: 'app.shortcuts.focusComposer.what' },
};

function composer(): HTMLTextAreaElement | null {
  const element = document.getElementById(COMPOSER_ID);
  return element instanceof HTMLTextAreaElement ? element : null;
}

/** A page's heading, which each page focuses when it opens (ui/Page.tsx, ChatPage). */
const PAGE_HEADING = '#main h1[tabindex="-1"]';

/**
 * Focuses the box, and keeps it focused when the page that has just opened puts focus on its
 * heading right after (its effect runs after the box appeared): the person asked for the box.
 */
function focusAndHold(element: HTMLTextAreaElement): boolean {
  element.focus();
  const reclaim = (event: FocusEvent) => {
    if (event.target instanceof Element && event.target.matches(PAGE_HEADING)) element.focus();
  };
  document.addEventListener('focusin', reclaim);
  setTimeout(() => document.removeEventListener('focusin', reclaim), 1_000);
  return document.activeElement === element;
}

/** Focuses the message box once it is there (the chat page loads on demand). Answers false if it did not come. */
export function focusComposer(timeoutMs = 5_000): Promise<boolean> {
  const now = composer();
  if (now) return Promise.resolve(focusAndHold(now));
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const element = composer();
      if (!element) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(focusAndHold(element));
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(false);
    }, timeoutMs);
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/**
 * Keyboard shortcuts of the whole app: a new chat, and the message box (opening the chat first
 * when elsewhere). A new chat waits while an answer is being written, as the New chat button does.
 */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const key = event.key.toLowerCase();
      if (key === 'o' && event.shiftKey && (IS_MAC ? event.metaKey : event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        if (composer()?.disabled) return;
        window.location.hash = hrefOf('chat');
        void focusComposer();
        return;
      }
      const slash = key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target) && !document.querySelector('dialog[open]');
      if ((key === 'escape' && event.shiftKey) || slash) {
        event.preventDefault();
        if (!composer()) window.location.hash = hrefOf('chat');
        void focusComposer();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * The first Tab after a page has opened (focus is on its heading, as each page puts it there)
 * goes to the skip links, as it would on a freshly loaded page: from there one Enter reaches the
 * message box, instead of tabbing through the navigation and the thread list.
 */
export function useTabToSkipLinks(firstSkipLink: () => HTMLElement | null): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.shiftKey || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const active = document.activeElement;
      const atPageStart = active === null || active === document.body || (active instanceof HTMLElement && (active.id === 'main' || active.matches(PAGE_HEADING)));
      const link = firstSkipLink();
      if (!atPageStart || !link) return;
      event.preventDefault();
      link.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [firstSkipLink]);
}
