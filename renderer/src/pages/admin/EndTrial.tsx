import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { useAction } from '../../ui/useAction.js';

/**
 * Ends a running trial at once (a token shared too widely, a trial that should stop early): the
 * trial user's token stops working; their threads stay. Confirmed first, as disabling is.
 */
export function EndTrial({ user, onEnded }: { user: { id: string; name: string }; onEnded: () => void }) {
  const intl = useIntl();
  const [confirming, setConfirming] = useState(false);
  const end = useAction(async () => {
    await client.call('admin.users.trial.end', { id: user.id });
    setConfirming(false);
    onEnded();
  });
  return (
    <>
      <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
        <FormattedMessage id="admin.userManager.endTrial" values={{ name: user.name }} />
      </Button>
      <ConfirmDialog
        open={confirming}
        title={intl.formatMessage({ id: 'admin.userManager.endTrialTitle' }, { name: user.name })}
        confirmLabel={intl.formatMessage({ id: 'admin.userManager.endTrialConfirm' })}
        tone="danger"
        busy={end.busy}
        error={end.error}
        onConfirm={() => void end.run()}
        onCancel={() => {
          setConfirming(false);
          end.reset();
        }}
      >
        <p>
          <FormattedMessage id="admin.userManager.endTrialBody" values={{ name: user.name }} />
        </p>
      </ConfirmDialog>
    </>
  );
}
