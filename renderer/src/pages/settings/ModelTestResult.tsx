import { FormattedMessage } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { AlertIcon, CheckIcon } from '../../ui/icons.js';

export type TestOutcome = OutputOf<Operations['models.test']>;

/** The answer of a connection test, in the row of the model it tested: latency, or the provider's error. */
export function ModelTestResult({ outcome }: { outcome: TestOutcome }) {
  return outcome.ok ? (
    <span className="test-result test-result-ok" role="status">
      <CheckIcon size={14} />
      <FormattedMessage id="settings.models.testConnected" values={{ latency: outcome.latency_ms }} />
    </span>
  ) : (
    <span className="test-result test-result-failed" role="status">
      <AlertIcon size={14} />
      {outcome.detail}
    </span>
  );
}
