import { useSyncExternalStore } from 'react';

/**
 * The open dataset lives in the hash (`#/datasets/ds_…`) so that it survives a reload and can be
 * linked to; `parseHash` only reads the first segment, so the route stays `datasets`.
 */
export function openDatasetId(): string | null {
  const match = /^#\/datasets\/([^/?]+)/.exec(window.location.hash);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useSelectedDataset(): string | null {
  return useSyncExternalStore(subscribe, openDatasetId);
}

export function datasetHref(id: string | null): string {
  return id === null ? '#/datasets' : `#/datasets/${encodeURIComponent(id)}`;
}
