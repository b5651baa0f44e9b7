import { useState, type FormEvent, type ReactNode } from 'react';
import type { OutputOf, Operations } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { Section } from '../../ui/Page.js';
import { humanLocation } from '../../ui/passage-location.js';
import { useAction } from '../../ui/useAction.js';

type Answer = OutputOf<Operations['search.query']>;

/** The question's words worth marking in a passage (three letters or more). */
function wordsOf(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])];
}

/** `text` with the question's words marked, for the eye to find them. */
function marked(text: string, words: string[]): ReactNode[] {
  if (words.length === 0) return [text];
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part));
}

/** A passage's text without the section path it starts with (the location already says it). */
function withoutPath(text: string, section: string | undefined): string {
  return section && text.startsWith(`${section}: `) ? text.slice(section.length + 2) : text;
}

/** Search inside one dataset: the passages that answer a question best, each openable whole. */
export function DatasetSearch({ datasetId }: { datasetId: string }) {
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<{ query: string; result: Answer } | null>(null);
  const search = useAction(async (q: string) => {
    const result = await client.call('search.query', { query: q, dataset_ids: [datasetId], limit: 10 });
    setAnswer({ query: q, result });
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (query.trim()) void search.run(query.trim());
  }

  const words = answer ? wordsOf(answer.query) : [];
  return (
    <Section title="Search this dataset" description="Find the passages that answer a question, as chat would cite them.">
      <form className="dataset-search" role="search" onSubmit={submit}>
        <TextField label="Question or keywords" fieldClassName="dataset-search-field" type="search" value={query} maxLength={4000} onChange={(e) => setQuery(e.target.value)} />
        <Button type="submit" busy={search.busy} disabled={!query.trim()}>
          Search
        </Button>
      </form>
      {search.error ? <Alert tone="error" title="The search did not run">{search.error}</Alert> : null}
      {answer ? (
        answer.result.data.length === 0 ? (
          <p className="dataset-search-empty" role="status">
            No passage matches “{answer.query}”. Try other words, or check that the files are ready.
          </p>
        ) : (
          <>
            <p className="dataset-search-summary" role="status">
              {answer.result.data.length} passage{answer.result.data.length === 1 ? '' : 's'} · {answer.result.mode === 'hybrid' ? 'keyword and meaning' : 'keyword'} search · {Math.round(answer.result.took_ms)} ms
            </p>
            <ol className="dataset-search-results">
              {answer.result.data.map((hit) => {
                const where = humanLocation(hit.location);
                return (
                  <li key={hit.chunk_id}>
                    <details className="search-hit">
                      <summary>
                        <span className="search-hit-key">{hit.artifact_key}</span>
                        {where ? <span className="search-hit-location"> · {where}</span> : null}
                        <span className="search-hit-snippet">{marked(withoutPath(hit.snippet, hit.location.section), words)}</span>
                      </summary>
                      <blockquote className="search-hit-text">{marked(withoutPath(hit.text, hit.location.section), words)}</blockquote>
                    </details>
                  </li>
                );
              })}
            </ol>
          </>
        )
      ) : null}
    </Section>
  );
}
