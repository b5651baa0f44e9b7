import { describe, expect, it } from 'vitest';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import type { Folder } from '../../../shared/operations/folders.js';
import { followText, seconds } from '../../../renderer/src/pages/datasets/folders/folder-format.js';

const intl = intlFor('en');
const ja = intlFor('ja');

const folder = (over: Partial<Folder>): Folder => ({
  id: 'fld_1',
  dataset_id: 'ds_1',
  path: '/srv/notes',
  include: [],
  exclude: [],
  status: 'watching',
  files: { seen: 0, ready: 0, failed: 0, pending: 0, skipped: 0 },
  error: null,
  watch: 'events',
  poll_seconds: null,
  skipped: [],
  created_at: '2026-11-26T00:00:00.000Z',
  last_scan_at: null,
  ...over,
});

describe('how a folder says it is followed', () => {
  it('gives the interval of a polled folder, as the service reports it', () => {
    expect(followText(intl, folder({ watch: 'polling', poll_seconds: 60 }))).toBe('Checking for changes every 60 s: this folder cannot be watched live.');
    expect(followText(intl, folder({ watch: 'polling', poll_seconds: null }))).toBe('Checking for changes periodically: this folder cannot be watched live.');
    expect(followText(intl, folder({ watch: 'events' }))).toMatch(/^Watching for changes/);
  });

  it('reads intervals as a person would', () => {
    expect(seconds(intl, 60)).toBe('60 s');
    expect(seconds(intl, 2.5)).toBe('2.5 s');
    expect(seconds(intl, 0.02)).toBe('0.02 s');
  });

  it('says it in the interface language', () => {
    expect(followText(ja, folder({ watch: 'polling', poll_seconds: 60 }))).toBe('60 秒ごとに変更を確認しています：このフォルダーはリアルタイムで監視できません。');
  });
});
