import { connect } from './connection.js';
import { watchReachability } from './reachability.js';

export type { Client } from './client.js';
export type { BrowserConnection, Connection, DesktopConnection } from './connection.js';

/** The renderer's one connection to the service, chosen when the app starts. */
export const connection = connect();

const watched = watchReachability(connection.client);

/** Typed calls to the service; which transport carries them is not the caller's business. */
export const client = watched.client;

/** Hears when the service stops answering, and when it answers again. */
export const onReachabilityChange = watched.onChange;
