import type { Message } from './types.js';

function locationText(location: Record<string, string | number>): string {
  return Object.entries(location)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
}

/** The passages an answer used, each openable to its snippet. */
export function Citations({ citations }: { citations: Message['citations'] }) {
  if (citations.length === 0) return null;
  return (
    <div className="citations">
      <p className="citations-title">Sources</p>
      <ol className="citations-list">
        {citations.map((c) => (
          <li key={`${c.index}-${c.artifact_id}`}>
            <details className="citation">
              <summary>
                <span className="citation-index">[{c.index}]</span> <span className="citation-key">{c.artifact_key}</span>
                {Object.keys(c.location).length > 0 ? <span className="citation-location"> · {locationText(c.location)}</span> : null}
              </summary>
              <blockquote className="citation-snippet">{c.snippet}</blockquote>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
