import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { MoreIcon } from '../../ui/icons.js';
import type { ExportFormat } from './thread-export.js';

export interface ThreadMenuProps {
  title: string;
  disabled: boolean;
  onRename: () => void;
  onDelete: () => void;
  onExport: (format: ExportFormat) => void;
}

/**
 * A thread's actions behind one button (the WAI-ARIA menu button): Enter, Space or a click opens
 * the menu on its first item, arrows move in it, Escape closes it and puts focus back on the
 * button. The button is out of the Tab order: the thread list reaches it with → from its thread.
 * The menu is fixed to the viewport, so the scrolling list does not cut it off.
 */
export function ThreadMenu({ title, disabled, onRename, onDelete, onExport }: ThreadMenuProps) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  const shut = () => {
    setOpen(false);
    setPlace(null);
  };
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) return;
    const at = button.current.getBoundingClientRect();
    const height = menu.current.offsetHeight;
    // Below the button, or above it when the window ends first.
    const top = at.bottom + 4 + height > window.innerHeight ? Math.max(4, at.top - 4 - height) : at.bottom + 4;
    setPlace({ top, right: Math.max(4, window.innerWidth - at.right) });
  }, [open]);

  // Once placed (a hidden item takes no focus), the menu opens on its first item.
  useEffect(() => {
    if (open && place) items()[0]?.focus();
  }, [open, place]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      const target = event.target;
      if (target instanceof Node && !menu.current?.contains(target) && !button.current?.contains(target)) shut();
    };
    // A scroll would leave the fixed menu behind its thread: it closes instead.
    const scrolled = (event: Event) => {
      if (!(event.target instanceof Node && menu.current?.contains(event.target))) shut();
    };
    document.addEventListener('pointerdown', outside, true);
    document.addEventListener('focusin', outside, true);
    window.addEventListener('scroll', scrolled, true);
    window.addEventListener('resize', scrolled);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      document.removeEventListener('focusin', outside, true);
      window.removeEventListener('scroll', scrolled, true);
      window.removeEventListener('resize', scrolled);
    };
  }, [open]);

  useEffect(() => {
    if (disabled) shut();
  }, [disabled]);

  const close = (refocus: boolean) => {
    shut();
    if (refocus) button.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => all[(index + all.length) % all.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(all.length - 1);
        break;
      case 'Escape':
        // Esc closes the menu only; it must not also stop an answer or close a dialog behind.
        event.stopPropagation();
        close(true);
        break;
      case 'Tab':
        // Tab leaves the menu and goes on from its button.
        close(false);
        button.current?.focus();
        return;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm thread-menu-button"
        tabIndex={-1}
        disabled={disabled}
        aria-label={intl.formatMessage({ id: 'chat.threads.actionsNamed' }, { title })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <MoreIcon size={16} />
      </button>
      {open ? (
        <div ref={menu} id={id} role="menu" className="thread-menu" aria-label={intl.formatMessage({ id: 'chat.threads.actionsNamed' }, { title })} style={place ? { top: place.top, right: place.right } : { visibility: 'hidden' }} onKeyDown={onMenuKey}>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="thread-menu-item"
            onClick={() => {
              close(false);
              onRename();
            }}
          >
            <FormattedMessage id="chat.threads.rename" />
          </button>
          {(['markdown', 'json'] as const).map((format) => (
            <button
              key={format}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="thread-menu-item"
              onClick={() => {
                close(true);
                onExport(format);
              }}
            >
              <FormattedMessage id={format === 'markdown' ? 'chat.threads.exportMarkdown' : 'chat.threads.exportJson'} />
            </button>
          ))}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="thread-menu-item is-danger"
            onClick={() => {
              // Focus back on the button first: the dialog returns it there when it closes.
              close(true);
              onDelete();
            }}
          >
            <FormattedMessage id="chat.threads.delete" />
          </button>
        </div>
      ) : null}
    </>
  );
}
