import { Component, type ErrorInfo, type ReactNode } from 'react';
import { getIntl } from '../i18n/intl.js';
import { Alert } from './Alert.js';
import { Button } from './Button.js';

interface Props {
  /** What failed, for the heading: a page, or the whole app. */
  what: 'page' | 'app';
  /** A change of this value (the route) clears the failure, so the user can go elsewhere. */
  resetKey?: string | null;
  /** The whole window failed: shown centred, as the app's other start-up screens are. */
  splash?: boolean;
  children: ReactNode;
}

interface State {
  error: Error | null;
  resetKey: string | null | undefined;
}

/** A page's code that could not be fetched: Parley was restarted or updated while this tab was open. */
function isChunkLoadError(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(error.message);
}

/**
 * What a render error leaves on screen: a plain sentence, the detail, and Reload — never a blank
 * window (without a boundary React removes the whole tree). A page whose code cannot be fetched
 * says why: the tab outlived the server it was loaded from.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`Parley could not show ${this.props.what}:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = isChunkLoadError(error);
    // A class component has no hook: the language in use now, which the boundary shows only on failure.
    const intl = getIntl();
    const { what } = this.props;
    const card = (
      <div className="splash-card error-boundary" role="alert">
        <h1>{intl.formatMessage({ id: chunk ? 'ui.errorBoundary.notLoaded' : 'ui.errorBoundary.failed' }, { what })}</h1>
        <Alert tone="error" title={intl.formatMessage({ id: chunk ? 'ui.errorBoundary.updatedTitle' : 'ui.errorBoundary.errorTitle' })}>
          {chunk ? intl.formatMessage({ id: 'ui.errorBoundary.updatedBody' }) : error.message}
        </Alert>
        <Button variant="primary" onClick={() => window.location.reload()}>
          {intl.formatMessage({ id: 'ui.errorBoundary.reload' })}
        </Button>
      </div>
    );
    return this.props.splash ? <main className="splash">{card}</main> : card;
  }
}
