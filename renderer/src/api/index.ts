import { connect } from './connection.js';

export type { Client } from './client.js';
export type { BrowserConnection, Connection, DesktopConnection } from './connection.js';

/** The renderer's one connection to the service, chosen when the app starts. */
export const connection = connect();

/** Typed calls to the service; which transport carries them is not the caller's business. */
export const client = connection.client;
