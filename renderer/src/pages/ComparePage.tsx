import { useCallback } from 'react';
import { client } from '../api/index.js';
import { hrefOf, useHashRoute } from '../app/routes.js';
import type { Me } from '../app/session.js';
import { Alert } from '../ui/Alert.js';
import { EmptyState } from '../ui/EmptyState.js';
import { CompareIcon } from '../ui/icons.js';
import { Loadable } from '../ui/Loadable.js';
import { Page } from '../ui/Page.js';
import { SubNav } from '../ui/SubNav.js';
import { useLoader } from '../ui/useLoader.js';
import { compareHref, compareViewFromHash, type CompareView } from './compare/compare-hash.js';
import { CompareForm } from './compare/CompareForm.js';
import { History } from './compare/History.js';
import { Leaderboard } from './compare/Leaderboard.js';
import { ResponseColumns, SharedCitations, VoteBar } from './compare/ResponseColumns.js';
import { useComparison } from './compare/useComparison.js';

const VIEWS: Array<{ tab: CompareView['tab']; label: string }> = [
  { tab: 'compare', label: 'Side by side' },
  { tab: 'leaderboard', label: 'Leaderboard' },
  { tab: 'history', label: 'History' },
];

function ViewNav({ current }: { current: CompareView['tab'] }) {
  return (
    <SubNav
      label="Compare views"
      className="compare-views"
      current={current}
      items={VIEWS.map((v) => ({ id: v.tab, label: v.label, href: compareHref(v.tab === 'compare' ? { tab: 'compare', comparisonId: null } : { tab: v.tab }) }))}
    />
  );
}

function NotEnoughModels({ me, count }: { me: Me; count: number }) {
  const canAdd = me.user.role === 'admin' || me.user.role === 'super_admin';
  return (
    <EmptyState
      icon={<CompareIcon size={22} />}
      title="Add at least two models in Settings"
      actions={
        canAdd ? (
          <a className="btn btn-primary btn-md" href={hrefOf('settings')}>
            Open Settings
          </a>
        ) : null
      }
    >
      <p>
        A comparison asks two to eight models the same prompt. {count === 1 ? 'Only the built-in model is available so far.' : 'No model is available yet.'}{' '}
        {canAdd ? 'Register an OpenAI-compatible or Anthropic model (Ollama, LM Studio, vLLM, OpenAI, …) in Settings → Models.' : 'Ask an admin to register more models.'}
      </p>
    </EmptyState>
  );
}

/** What a loaded comparison asked: the form's refill (a blind one's models are known once voted). */
function refillOf(state: ReturnType<typeof useComparison>['state']) {
  if (state.status !== 'ready' || !state.comparison || state.streaming) return null;
  const c = state.comparison;
  return { id: c.id, prompt: c.prompt, model_ids: c.responses.map((r) => r.model_id).filter((m): m is string => m !== null), dataset_ids: c.dataset_ids, blind: c.blind };
}

function CompareTab({ me, comparisonId }: { me: Me; comparisonId: string | null }) {
  const pickers = useLoader(async () => {
    const [models, datasets] = await Promise.all([
      client.call('models.list', {}),
      client.call('datasets.list', { limit: 200 }).catch(() => ({ data: [], next_cursor: null })),
    ]);
    return { models: models.data, datasets: datasets.data };
  });
  const onStarted = useCallback((id: string) => {
    window.location.hash = compareHref({ tab: 'compare', comparisonId: id });
  }, []);
  const { state, start, stop, vote } = useComparison(comparisonId, onStarted);
  const streaming = state.status === 'ready' && state.streaming;
  const onStop = useCallback(() => void stop(), [stop]);

  return (
    <Loadable state={pickers.state} reload={pickers.reload} loading="Loading models…" failed="The models could not be loaded">
      {({ models, datasets }) =>
        models.length < 2 ? (
          <NotEnoughModels me={me} count={models.length} />
        ) : (
          <div className="compare-workspace">
            <CompareForm models={models} datasets={datasets} streaming={streaming} onCompare={start} onStop={onStop} refill={refillOf(state)} />
            {state.status === 'loading' ? (
              <p className="loading" role="status">
                Loading the comparison…
              </p>
            ) : state.status === 'error' ? (
              <Alert tone="error" title="The comparison could not be loaded">
                {state.error}
              </Alert>
            ) : state.status === 'ready' ? (
              <section className="compare-results" aria-label="Answers">
                {state.error ? (
                  <Alert tone="error" title="Something went wrong">
                    {state.error}
                  </Alert>
                ) : null}
                {state.comparison ? (
                  <>
                    <div className="compare-asked">
                      <span className="compare-asked-label">Prompt</span>
                      <p className="compare-asked-text">{state.comparison.prompt}</p>
                      {state.comparison.blind ? <span className="badge badge-accent">Blind</span> : null}
                    </div>
                    <ResponseColumns comparison={state.comparison} />
                    <SharedCitations comparison={state.comparison} />
                    <VoteBar comparison={state.comparison} onVote={vote} />
                  </>
                ) : streaming ? (
                  <p className="loading" role="status">
                    Asking the models…
                  </p>
                ) : null}
              </section>
            ) : (
              <p className="compare-hint muted">Write a prompt, choose the models, and press Compare: every answer streams in its own column.</p>
            )}
          </div>
        )
      }
    </Loadable>
  );
}

export function ComparePage({ me }: { me: Me }) {
  const { hash } = useHashRoute();
  const view = compareViewFromHash(hash);
  return (
    <Page title="Compare" description="Put models side by side on the same prompt, and vote for the better answer.">
      <ViewNav current={view.tab} />
      {view.tab === 'compare' ? <CompareTab me={me} comparisonId={view.comparisonId} /> : view.tab === 'leaderboard' ? <Leaderboard /> : <History />}
    </Page>
  );
}
