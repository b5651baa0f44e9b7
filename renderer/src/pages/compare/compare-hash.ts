/** The compare page's views: `#/compare`, `#/compare/cmp_…` (one comparison), `#/compare/leaderboard`, `#/compare/history`. */
export type CompareView = { tab: 'compare'; comparisonId: string | null } | { tab: 'leaderboard' } | { tab: 'history' };

export function compareViewFromHash(hash: string): CompareView {
  const rest = hash.replace(/^#\/?compare\/?/, '').split(/[/?]/)[0] ?? '';
  if (rest === 'leaderboard') return { tab: 'leaderboard' };
  if (rest === 'history') return { tab: 'history' };
  return { tab: 'compare', comparisonId: /^cmp_[A-Za-z0-9]+$/.test(rest) ? rest : null };
}

export function compareHref(view: CompareView): string {
  if (view.tab !== 'compare') return `#/compare/${view.tab}`;
  return view.comparisonId ? `#/compare/${view.comparisonId}` : '#/compare';
}
