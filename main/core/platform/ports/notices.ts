/*
 * Short notices between the instances sharing one database (issue 33): work one process holds in
 * memory (an answer being written) can be asked about by a request that reached another. On SQLite
 * (one process) they stay in the process; on PostgreSQL they go through LISTEN/NOTIFY. Declared
 * beside their two implementations (main/db/notices.ts), which only the database layer may know.
 */
export type { NoticeKind, NoticesPort } from '../../../db/notices.js';
