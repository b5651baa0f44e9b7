import type { Me } from '../app/session.js';
import { ChatIcon } from '../ui/icons.js';
import { Upcoming } from './Upcoming.js';

export function ChatPage({ me }: { me: Me }) {
  return (
    <Upcoming
      me={me}
      title="Chat"
      description="Ask questions and get answers grounded in your datasets."
      icon={<ChatIcon size={22} />}
      heading="Your conversations will appear here"
    >
      <p>
        Each message is answered by the model best suited to it, or by one you choose. Answers drawn from your datasets cite the
        passages they used, and every answer shows which model wrote it.
      </p>
      <p className="empty-note">Chatting from this window is not available in this version yet.</p>
    </Upcoming>
  );
}
