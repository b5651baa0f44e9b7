import { marked } from 'marked';
import { renderMarkdown, type ReportData } from './render.js';

// A file of its own, imported when an HTML report is written: the Markdown library is not
// evaluated at every start of served mode for a format few reports use (test/bench/startup.ts).

/** The same report as a standalone HTML page; every user-supplied text was escaped in the Markdown. */
export function renderHtml(r: ReportData): string {
  const body = marked.parse(renderMarkdown(r), { async: false });
  const title = r.dataset.name.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title} — Parley report</title>\n<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}</style></head>\n<body>\n${body}</body></html>\n`;
}
