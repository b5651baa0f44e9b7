import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Alert } from './Alert.js';
import { Button } from './Button.js';
import { Skeleton, type SkeletonShape } from './Skeleton.js';
import type { Loaded } from './useLoader.js';

export interface LoadableProps<T> {
  state: Loaded<T>;
  reload: () => void;
  /** e.g. "Loading users…", read out while the skeleton shows. */
  loading: string;
  /** The shape of what is loading; a table by default. */
  shape?: SkeletonShape;
  /** e.g. "The users could not be loaded" */
  failed: string;
  children: (data: T) => ReactNode;
}

/** What a list shows while it loads, when it could not load (with a retry), and once it has. */
export function Loadable<T>({ state, reload, loading, shape = 'table', failed, children }: LoadableProps<T>) {
  if (state.status === 'loading') return <Skeleton shape={shape} label={loading} />;
  if (state.status === 'error') {
    return (
      <Alert
        tone="error"
        title={failed}
        action={
          <Button size="sm" onClick={reload}>
            <FormattedMessage id="ui.loadable.retry" />
          </Button>
        }
      >
        {state.error}
      </Alert>
    );
  }
  return <>{children(state.data)}</>;
}
