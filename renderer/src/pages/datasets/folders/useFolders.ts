import { useCallback, useEffect, useRef, useState } from 'react';
import type { Folder } from '../../../../../shared/operations/folders.js';
import { client } from '../../../api/index.js';
import { errorText } from '../../../ui/error-text.js';
import { isBusy } from './folder-format.js';

/** While a folder is scanning or has files queued: its counts move every second. */
const BUSY_POLL_MS = 1000;
/**
 * While all folders are merely followed: a file edited on disk changes the dataset at any moment,
 * and the service has no change events to subscribe to, so the page looks again now and then.
 */
const IDLE_POLL_MS = 5000;

export interface FoldersState {
  folders: Folder[];
  loading: boolean;
  error: string | null;
  /**
   * Where an admin may follow a folder on this server (`[folders] allowed_roots`; empty: anywhere
   * Parley can read); null until known, and for anyone but an admin.
   */
  allowedRoots: string[] | null;
  /** A folder is scanning or reading files: the file list should follow closely too. */
  busy: boolean;
  refresh: () => void;
  /** Puts a folder the service answered (created, paused, resumed) in place without a reload. */
  put: (folder: Folder) => void;
  drop: (folderId: string) => void;
}

/** What changed on disk shows in the counts: a new value calls `onChange`, so the file list is read again. */
const signature = (folders: Folder[]) => folders.map((f) => `${f.id}:${f.status}:${JSON.stringify(f.files)}:${f.last_scan_at ?? ''}`).join('|');

/** The folders a dataset follows, read again while they move and when the window comes back. */
export function useFolders(datasetId: string, onChange: () => void): FoldersState {
  const [folders, setFolders] = useState<Folder[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [allowedRoots, setAllowedRoots] = useState<string[] | null>(null);
  const generation = useRef(0);
  const last = useRef('');
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  const accept = useCallback((next: Folder[]) => {
    setFolders(next);
    const now = signature(next);
    if (last.current && now !== last.current) changed.current();
    last.current = now;
  }, []);

  const refresh = useCallback(() => {
    const mine = generation.current;
    client.call('folders.list', { id: datasetId }).then(
      (list) => {
        if (mine !== generation.current) return;
        accept(list.data);
        setAllowedRoots(list.allowed_roots);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (mine !== generation.current) return;
        setError(errorText(e));
        setLoading(false);
      },
    );
  }, [datasetId, accept]);

  useEffect(() => {
    generation.current++;
    last.current = '';
    setLoading(true);
    refresh();
  }, [refresh]);

  const busy = folders.some(isBusy);
  const following = folders.some((f) => f.status === 'watching');
  useEffect(() => {
    if (!busy && !following) return;
    const timer = window.setInterval(refresh, busy ? BUSY_POLL_MS : IDLE_POLL_MS);
    return () => window.clearInterval(timer);
  }, [busy, following, refresh]);

  useEffect(() => {
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, [refresh]);

  // The file list changes with these at once (a removed folder's files are gone): it is read again.
  const put = useCallback((folder: Folder) => {
    setFolders((previous) => (previous.some((f) => f.id === folder.id) ? previous.map((f) => (f.id === folder.id ? folder : f)) : [...previous, folder]));
    changed.current();
  }, []);

  const drop = useCallback((folderId: string) => {
    setFolders((previous) => previous.filter((f) => f.id !== folderId));
    changed.current();
  }, []);

  return { folders, loading, error, allowedRoots, busy, refresh, put, drop };
}
