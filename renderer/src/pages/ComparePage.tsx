import type { Me } from '../app/session.js';
import { CompareIcon } from '../ui/icons.js';
import { Upcoming } from './Upcoming.js';

export function ComparePage({ me }: { me: Me }) {
  return (
    <Upcoming
      me={me}
      title="Compare"
      description="Put models side by side on the same prompt."
      icon={<CompareIcon size={22} />}
      heading="Your comparisons will appear here"
    >
      <p>
        Send one prompt to two to eight models at once and vote for the better answer, blind if you like, so that you judge the
        answer and not the name. Votes build a leaderboard of the models you use.
      </p>
      <p className="empty-note">Comparing models from this window is not available in this version yet.</p>
    </Upcoming>
  );
}
