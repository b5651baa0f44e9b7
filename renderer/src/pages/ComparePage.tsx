import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { client } from '../api/index.js';
import { useHashRoute } from '../app/routes.js';
import type { Me } from '../app/session.js';
import type { MessageId } from '../i18n/catalogues/index.js';
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
import { settingsHref } from './settings/sections.js';

const VIEWS: Array<{ tab: CompareView['tab']; id: MessageId }> = [
  { tab: 'compare', id: 'compare.views.compare' },
  { tab: 'leaderboard', id: 'compare.views.leaderboard' },
  { tab: 'history', id: 'compare.views.history' },
];

function ViewNav({ current }: { current: CompareView['tab'] }) {
  const intl = useIntl();
  return (
    <SubNav
      label={intl.formatMessage({ id: 'compare.views.label' })}
      className="compare-views"
      current={current}
      items={VIEWS.map((v) => ({ id: v.tab, label: intl.formatMessage({ id: v.id }), href: compareHref(v.tab === 'compare' ? { tab: 'compare', comparisonId: null } : { tab: v.tab }) }))}
    />
  );
}

function NotEnoughModels({ me, count }: { me: Me; count: number }) {
  const intl = useIntl();
  const canAdd = me.user.role === 'admin' || me.user.role === 'super_admin';
  return (
    <EmptyState
      icon={<CompareIcon size={22} />}
      title={intl.formatMessage({ id: 'compare.notEnough.title' })}
      actions={
        canAdd ? (
          <a className="btn btn-primary btn-md" href={settingsHref('models')}>
            {intl.formatMessage({ id: 'compare.notEnough.openSettings' })}
          </a>
        ) : null
      }
    >
      <p>
        {intl.formatMessage(
          { id: 'compare.notEnough.body' },
          {
            intro: intl.formatMessage({ id: 'compare.notEnough.intro' }),
            state: intl.formatMessage({ id: count === 1 ? 'compare.notEnough.onlyBuiltin' : 'compare.notEnough.none' }),
            action: intl.formatMessage({ id: canAdd ? 'compare.notEnough.register' : 'compare.notEnough.askAdmin' }),
          },
        )}
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
  const intl = useIntl();
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
    <Loadable state={pickers.state} reload={pickers.reload} loading={intl.formatMessage({ id: 'compare.page.loadingModels' })} failed={intl.formatMessage({ id: 'compare.page.modelsFailed' })}>
      {({ models, datasets }) =>
        models.length < 2 ? (
          <NotEnoughModels me={me} count={models.length} />
        ) : (
          <div className="compare-workspace">
            <CompareForm models={models} datasets={datasets} streaming={streaming} onCompare={start} onStop={onStop} refill={refillOf(state)} />
            {state.status === 'loading' ? (
              <p className="loading" role="status">
                {intl.formatMessage({ id: 'compare.page.loadingComparison' })}
              </p>
            ) : state.status === 'error' ? (
              <Alert tone="error" title={intl.formatMessage({ id: 'compare.page.comparisonFailed' })}>
                {state.error}
              </Alert>
            ) : state.status === 'ready' ? (
              <section className="compare-results" aria-label={intl.formatMessage({ id: 'compare.page.answers' })}>
                {state.error ? (
                  <Alert tone="error" title={intl.formatMessage({ id: 'compare.page.error' })}>
                    {state.error}
                  </Alert>
                ) : null}
                {state.comparison ? (
                  <>
                    <div className="compare-asked">
                      <span className="compare-asked-label">{intl.formatMessage({ id: 'compare.form.prompt' })}</span>
                      <p className="compare-asked-text">{state.comparison.prompt}</p>
                      {state.comparison.blind ? <span className="badge badge-accent">{intl.formatMessage({ id: 'compare.page.blind' })}</span> : null}
                    </div>
                    <ResponseColumns comparison={state.comparison} />
                    <SharedCitations comparison={state.comparison} />
                    <VoteBar comparison={state.comparison} onVote={vote} />
                  </>
                ) : streaming ? (
                  <p className="loading" role="status">
                    {intl.formatMessage({ id: 'compare.page.asking' })}
                  </p>
                ) : null}
              </section>
            ) : (
              <p className="compare-hint muted">{intl.formatMessage({ id: 'compare.page.hint' })}</p>
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
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'compare.page.title' })} description={intl.formatMessage({ id: 'compare.page.description' })}>
      <ViewNav current={view.tab} />
      {view.tab === 'compare' ? <CompareTab me={me} comparisonId={view.comparisonId} /> : view.tab === 'leaderboard' ? <Leaderboard /> : <History />}
    </Page>
  );
}
