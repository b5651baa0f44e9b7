/**
 * Draws the core's domains and who imports whom, as a Mermaid flowchart (`npm run draw-imports`):
 * one box a wing, bottom to top; every arrow points down or sideways, never up (the architecture
 * test fails otherwise). docs/architecture.md holds the drawing; run this again when domains change.
 */
import { WINGS, domainEdges, mainGraph } from '../test/support/import-graph.js';

// Platform is what every wing stands on (context, ids, auth, config…) and service is the composition
// root: each is one box. Arrows into platform and into main/db (every domain keeps its records there)
// are left out, or they would be most of the drawing.
const collapse = (domain: string) => (domain.startsWith('platform/') ? 'platform' : domain.startsWith('service/') ? 'service' : domain);
const edges = new Map<string, Set<string>>();
for (const [from, out] of domainEdges(mainGraph())) {
  for (const to of out.keys()) {
    const a = collapse(from);
    // The composition root reaches into every wing: drawn as one arrow a wing.
    const b = a === 'service' ? (collapse(to).split('/')[0] ?? to) : collapse(to);
    if (a === b || b === 'platform' || (b === 'db' && a !== 'search')) continue;
    edges.set(a, (edges.get(a) ?? new Set<string>()).add(b));
  }
}
const domains = new Set<string>(['platform', ...edges.keys(), ...[...edges.values()].flatMap((out) => [...out])]);
const id = (domain: string) => domain.replace(/[^a-z0-9]/gi, '_');
const label = (domain: string) => domain.split('/').pop() ?? domain;
const lines = ['flowchart TB'];
for (const wing of [...WINGS].reverse()) {
  const members = [...domains].filter((d) => d === wing || d.startsWith(`${wing}/`)).sort();
  if (members.length === 1 && members[0] === wing) lines.push(`  ${id(wing)}[${wing}]`);
  else lines.push(`  subgraph ${wing}`, ...members.map((d) => `    ${id(d)}[${label(d)}]`), '  end');
}
lines.push('  subgraph below[below the core]', '    search[main/search]', '    db[main/db]', '  end');
for (const [from, out] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
  for (const to of [...out].sort()) lines.push(`  ${id(from)} --> ${id(to)}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
