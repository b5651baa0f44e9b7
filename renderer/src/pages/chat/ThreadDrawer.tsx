import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { ChatIcon, CloseIcon, PlusIcon } from '../../ui/icons.js';
import { useMediaQuery } from '../../ui/useMediaQuery.js';

/** The shell's narrow breakpoint (styles/shell.css): below it the thread list is a drawer. */
export const NARROW = '(max-width: 760px)';

// In the Tab order only: the thread list's other threads (a roving tabindex) are not, nor their menus.
const FOCUSABLE = ['a[href]', 'button:not(:disabled)', 'input:not(:disabled)', 'textarea:not(:disabled)', '[tabindex]'].map((s) => `${s}:not([tabindex="-1"])`).join(', ');

function focusables(root: HTMLElement | null): HTMLElement[] {
  return root ? [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null) : [];
}

/**
 * The thread list beside the chat in a wide window; in a narrow one, a drawer opened by a
 * "Threads" button above the conversation, so the conversation keeps the whole height. The open
 * drawer is modal: focus moves into it and stays there, Esc or a click beside it closes it, and
 * choosing a thread (or a new chat) closes it too; focus then returns to where it belongs.
 */
export function ThreadDrawer({ children, title, onNewChat }: { children: ReactNode; title?: string; onNewChat?: () => void }) {
  const intl = useIntl();
  const narrow = useMediaQuery(NARROW);
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();
  const drawerOpen = narrow && open;

  const close = (returnFocus: 'toggle' | 'composer') => {
    setOpen(false);
    // After the drawer is hidden: the composer when a thread was chosen, else the button.
    requestAnimationFrame(() => {
      const composer = document.getElementById('composer-input');
      if (returnFocus === 'composer' && composer instanceof HTMLTextAreaElement && !composer.disabled) composer.focus();
      else toggle.current?.focus();
    });
  };

  useEffect(() => {
    if (!drawerOpen) return;
    focusables(panel.current)[0]?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      // A dialog opened from the drawer (delete a thread) handles its own Esc.
      if (event.key === 'Escape' && !event.defaultPrevented && !document.querySelector('dialog[open]')) {
        event.preventDefault();
        close('toggle');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  // Growing the window past the breakpoint shows the list inline; it is not "open" any more.
  useEffect(() => {
    if (!narrow) setOpen(false);
  }, [narrow]);

  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!drawerOpen || event.key !== 'Tab') return;
    const items = focusables(panel.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const closeOnChoice = (event: MouseEvent<HTMLDivElement>) => {
    if (drawerOpen && event.target instanceof Element && event.target.closest('a.thread-link, .thread-new')) close('composer');
  };

  return (
    <>
      <div className="thread-drawer-bar">
        <button ref={toggle} type="button" className="btn btn-secondary btn-sm" aria-expanded={drawerOpen} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          <ChatIcon size={16} />
          <FormattedMessage id="chat.drawer.threads" />
        </button>
        {/* Which conversation this is, and a new one, without opening the drawer. */}
        {title ? (
          <p className="thread-drawer-title" title={title}>
            {title}
          </p>
        ) : null}
        {onNewChat ? (
          <Button size="sm" variant="ghost" className="thread-drawer-new" icon={<PlusIcon size={16} />} onClick={onNewChat} aria-label={intl.formatMessage({ id: 'chat.drawer.newChat' })} />
        ) : null}
      </div>
      {drawerOpen ? <div className="thread-drawer-backdrop" aria-hidden="true" onClick={() => close('toggle')} /> : null}
      <div
        ref={panel}
        id={id}
        className={`thread-drawer${drawerOpen ? ' is-open' : ''}`}
        role={narrow ? 'dialog' : undefined}
        aria-modal={drawerOpen ? true : undefined}
        aria-label={narrow ? intl.formatMessage({ id: 'chat.drawer.threads' }) : undefined}
        inert={narrow && !open}
        onKeyDown={trapTab}
        onClick={closeOnChoice}
      >
        {drawerOpen ? (
          <Button variant="ghost" size="sm" className="thread-drawer-close" icon={<CloseIcon size={16} />} onClick={() => close('toggle')} aria-label={intl.formatMessage({ id: 'chat.drawer.close' })} />
        ) : null}
        {children}
      </div>
    </>
  );
}
