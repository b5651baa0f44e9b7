import { connection } from '../api/index.js';
import { createSessionStore } from './session.js';

/** Who is signed in, for the whole app. */
export const useSession = createSessionStore(connection);
