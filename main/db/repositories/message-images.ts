import type { ChatImageType } from '../../../shared/chat-images.js';
import type { SqlDb as Db } from '../sql.js';

/** An image sent with a message, without its bytes: what a thread's page lists. */
export interface MessageImageRecord {
  id: string;
  message_id: string;
  position: number;
  name: string;
  media_type: ChatImageType;
  size: number;
  created_at: string;
}

/** One image to store, its bytes checked already (conversation/chat/images.ts). */
export interface NewMessageImage {
  id: string;
  name: string;
  media_type: ChatImageType;
  data: Buffer;
}

const COLUMNS = 'id, message_id, position, name, media_type, size, created_at';

export function createMessageImagesRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO message_images (id, message_id, position, name, media_type, size, data, created_at)
     VALUES (@id, @message_id, @position, @name, @media_type, @size, @data, @created_at)`,
  );
  const ofMessage = db.prepare<[string], MessageImageRecord>(`SELECT ${COLUMNS} FROM message_images WHERE message_id = ? ORDER BY position`);
  const ofMessages = (ids: string[]) =>
    ids.length === 0
      ? []
      : db.prepare<string[], MessageImageRecord>(`SELECT ${COLUMNS} FROM message_images WHERE message_id IN (${ids.map(() => '?').join(',')}) ORDER BY message_id, position`).all(...ids);
  const bytes = db.prepare<[string, string], MessageImageRecord & { data: Buffer }>(`SELECT ${COLUMNS}, data FROM message_images WHERE id = ? AND message_id = ?`);
  const dataOf = (ids: string[]) =>
    ids.length === 0
      ? []
      : db
          .prepare<string[], { message_id: string; media_type: ChatImageType; data: Buffer }>(
            `SELECT message_id, media_type, data FROM message_images WHERE message_id IN (${ids.map(() => '?').join(',')}) ORDER BY message_id, position`,
          )
          .all(...ids);

  const countsOf = (ids: string[]) =>
    ids.length === 0
      ? []
      : db.prepare<string[], { message_id: string; n: number }>(`SELECT message_id, count(*) AS n FROM message_images WHERE message_id IN (${ids.map(() => '?').join(',')}) GROUP BY message_id`).all(...ids);
  const full = db.prepare<[string], MessageImageRecord & { data: Buffer }>(`SELECT ${COLUMNS}, data FROM message_images WHERE message_id = ? ORDER BY position`);

  return {
    /** How many images each of `messageIds` has (those with none are left out). */
    counts: (messageIds: string[]) => new Map(countsOf(messageIds).map((r) => [r.message_id, r.n])),
    /** One message's images with their bytes, in order (an edited question takes its old one's). */
    withData: (messageId: string) => full.all(messageId),
    /** Stores a message's images in their order; inside the transaction that stores the message. */
    insert(messageId: string, images: readonly NewMessageImage[], now: string) {
      images.forEach((image, position) => insert.run({ ...image, message_id: messageId, position, size: image.data.length, created_at: now }));
    },
    /** One message's images, in order, without their bytes. */
    ofMessage: (messageId: string) => ofMessage.all(messageId),
    /** The images of several messages (a page of a thread), grouped by message, without their bytes. */
    byMessage(messageIds: string[]): Map<string, MessageImageRecord[]> {
      const grouped = new Map<string, MessageImageRecord[]>();
      for (const row of ofMessages(messageIds)) grouped.set(row.message_id, [...(grouped.get(row.message_id) ?? []), row]);
      return grouped;
    },
    /** One image with its bytes, when it belongs to `messageId`. */
    get: (messageId: string, id: string) => bytes.get(id, messageId),
    /** The bytes of several messages' images, grouped by message in order: what a model is shown. */
    dataByMessage(messageIds: string[]): Map<string, Array<{ media_type: ChatImageType; data: Buffer }>> {
      const grouped = new Map<string, Array<{ media_type: ChatImageType; data: Buffer }>>();
      for (const row of dataOf(messageIds)) grouped.set(row.message_id, [...(grouped.get(row.message_id) ?? []), { media_type: row.media_type, data: row.data }]);
      return grouped;
    },
  };
}

export type MessageImagesRepo = ReturnType<typeof createMessageImagesRepo>;
