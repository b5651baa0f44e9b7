import { randomBytes } from 'node:crypto';
import type { Repositories } from '../../../db/repositories/index.js';

const SETTING = 'upload_signing_key';

/**
 * The key that signs upload URLs: made once per install, kept so URLs stay valid across restarts
 * and on every instance sharing the database (two starting together keep the first one stored).
 */
export function uploadSigningKey(repos: Repositories): Buffer {
  const stored = repos.settings.get(SETTING) ?? repos.settings.setIfAbsent(SETTING, randomBytes(32).toString('hex'));
  return Buffer.from(stored, 'hex');
}
