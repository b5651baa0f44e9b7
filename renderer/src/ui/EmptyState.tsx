import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  /** Heading level, so the state sits correctly in the page outline. */
  level?: 2 | 3;
}

export function EmptyState({ icon, title, children, actions, level = 2 }: EmptyStateProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="empty">
      <div className="empty-icon">{icon}</div>
      <Heading className="empty-title">{title}</Heading>
      <div className="empty-body">{children}</div>
      {actions ? <div className="empty-actions">{actions}</div> : null}
    </div>
  );
}
