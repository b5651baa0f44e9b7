import type { ReactNode } from 'react';
import { hrefOf } from '../app/routes.js';
import type { Me } from '../app/session.js';
import { EmptyState } from '../ui/EmptyState.js';
import { KeyIcon, UsersIcon } from '../ui/icons.js';
import { Page } from '../ui/Page.js';

export interface UpcomingProps {
  me: Me;
  title: string;
  description: string;
  icon: ReactNode;
  heading: string;
  /** What this page will hold, in a sentence or two. */
  children: ReactNode;
}

/**
 * A page whose feature is not in this version: says plainly what it will hold and offers what can
 * be done today, instead of an empty screen or made-up content.
 */
export function Upcoming({ me, title, description, icon, heading, children }: UpcomingProps) {
  return (
    <Page title={title} description={description}>
      <EmptyState icon={icon} title={heading}>
        {children}
      </EmptyState>
      <section className="next-steps" aria-labelledby="next-steps-title">
        <h2 id="next-steps-title">What you can do now</h2>
        <ul className="next-steps-list">
          <li>
            <a className="next-step" href={hrefOf('settings')}>
              <span className="next-step-icon">
                <KeyIcon size={18} />
              </span>
              <span>
                <span className="next-step-title">Create an API key</span>
                <span className="next-step-text">Connect scripts and tools to Parley’s HTTP API, acting as you.</span>
              </span>
            </a>
          </li>
          {me.user.role === 'super_admin' ? (
            <li>
              <a className="next-step" href={hrefOf('admin')}>
                <span className="next-step-icon">
                  <UsersIcon size={18} />
                </span>
                <span>
                  <span className="next-step-title">Add people</span>
                  <span className="next-step-text">Create users in {me.user.organization.name}, each with a first API key.</span>
                </span>
              </a>
            </li>
          ) : null}
        </ul>
      </section>
    </Page>
  );
}
