import { useState, type FormEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { OutputOf, Operations } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { Section } from '../../ui/Page.js';
import { humanLocation } from '../../ui/passage-location.js';
import { useAction } from '../../ui/useAction.js';
import { markedRuns, markWords, type MarkWords } from './search-marks.js';

type Answer = OutputOf<Operations['search.query']>;

/** `text` with the question's words marked, for the eye to find them. */
function marked(text: string, words: MarkWords): ReactNode[] {
  return markedRuns(text, words).map((run, i) => (run.marked ? <mark key={i}>{run.text}</mark> : run.text));
}

/** A passage's text without the section path it starts with (the location already says it). */
function withoutPath(text: string, section: string | undefined): string {
  return section && text.startsWith(`${section}: `) ? text.slice(section.length + 2) : text;
}

/** Search inside one dataset: the passages that answer a question best, each openable whole. */
export function DatasetSearch({ datasetId }: { datasetId: string }) {
  const intl = useIntl();
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

  const words = markWords(answer?.query ?? '');
  return (
    <Section title={intl.formatMessage({ id: 'datasets.search.title' })} description={intl.formatMessage({ id: 'datasets.search.description' })}>
      <form className="dataset-search" role="search" onSubmit={submit}>
        <TextField label={intl.formatMessage({ id: 'datasets.search.field' })} fieldClassName="dataset-search-field" type="search" value={query} maxLength={4000} onChange={(e) => setQuery(e.target.value)} />
        <Button type="submit" busy={search.busy} disabled={!query.trim()}>
          {intl.formatMessage({ id: 'datasets.search.submit' })}
        </Button>
      </form>
      {search.error ? <Alert tone="error" title={intl.formatMessage({ id: 'datasets.search.failed' })}>{search.error}</Alert> : null}
      {answer ? (
        answer.result.data.length === 0 ? (
          <p className="dataset-search-empty" role="status">
            {intl.formatMessage({ id: 'datasets.search.empty' }, { query: answer.query })}
          </p>
        ) : (
          <>
            <p className="dataset-search-summary" role="status">
              {intl.formatMessage(
                { id: 'datasets.search.summary' },
                { count: answer.result.data.length, mode: answer.result.mode, ms: intl.formatNumber(Math.round(answer.result.took_ms)) },
              )}
            </p>
            <ol className="dataset-search-results">
              {answer.result.data.map((hit) => {
                const where = humanLocation(hit.location, intl);
                return (
                  <li key={hit.chunk_id}>
                    <details className="search-hit">
                      <summary>
                        <span className="search-hit-key">{hit.artifact_key}</span>
                        {where ? <span className="search-hit-location">{intl.formatMessage({ id: 'datasets.search.location' }, { where })}</span> : null}
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
