import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';

export interface ReportData {
  dataset: { name: string; description: string | null };
  artifacts: ArtifactRecord[];
  terms: Array<{ term: string; count: number }>;
  summary: { text: string; model: string } | { unavailable: string };
  generatedAt: string;
}

/** User text inside our Markdown: no HTML, no Markdown syntax of its own. */
function esc(text: string): string {
  return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c).replace(/([\\`*_[\]|#])/g, '\\$1');
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function tally<T extends string>(items: T[]): string {
  const map = new Map<T, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return [...map.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${esc(k)}: ${n}`).join(', ');
}

export function renderMarkdown(r: ReportData): string {
  const a = r.artifacts;
  const lines = [
    `# ${esc(r.dataset.name)}`,
    '',
    ...(r.dataset.description ? [esc(r.dataset.description), ''] : []),
    `Report generated ${r.generatedAt}.`,
    '',
    '## Summary',
    '',
    'text' in r.summary ? `${esc(r.summary.text)}\n\n_Written by ${esc(r.summary.model)}._` : `_${esc(r.summary.unavailable)}_`,
    '',
    '## Overview',
    '',
    `- Files: ${a.length}`,
    `- Statuses: ${a.length ? tally(a.map((x) => x.status)) : 'none'}`,
    `- Types: ${a.length ? tally(a.map((x) => x.mime_type ?? 'unknown')) : 'none'}`,
    `- Total size: ${size(a.reduce((n, x) => n + x.size, 0))}`,
    `- Chunks: ${a.reduce((n, x) => n + x.chunk_count, 0)}`,
    '',
    '## Most characteristic terms',
    '',
    r.terms.length ? r.terms.map((t) => `${esc(t.term)} (${t.count})`).join(', ') : '_Not enough text yet._',
    '',
    '## Files',
    '',
    '| File | Type | Size | Status | Chunks |',
    '| --- | --- | --- | --- | --- |',
    ...a.map((x) => `| ${esc(x.key)} | ${esc(x.mime_type ?? '—')} | ${size(x.size)} | ${x.status}${x.error_code ? ` (${x.error_code}: ${esc(x.error_detail ?? '')})` : ''} | ${x.chunk_count} |`),
    '',
  ];
  return lines.join('\n');
}
