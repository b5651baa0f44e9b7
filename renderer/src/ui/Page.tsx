import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useIntl } from 'react-intl';

export interface PageProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * One page of the app: its heading, which takes focus when the page opens so that a screen reader
 * announces where navigation led, and the document title.
 */
export function Page({ title, description, actions, children }: PageProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const intl = useIntl();
  useEffect(() => {
    document.title = intl.formatMessage({ id: 'ui.page.documentTitle' }, { title });
  }, [title, intl]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {description ? <p className="page-description">{description}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

export interface SectionProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled part of a page, a landmark named by its heading. */
export function Section({ title, description, actions, children }: SectionProps) {
  const id = useId();
  return (
    <section className="section" aria-labelledby={id}>
      <div className="section-header">
        <div>
          <h2 id={id}>{title}</h2>
          {description ? <p className="section-description">{description}</p> : null}
        </div>
        {actions ? <div className="section-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
