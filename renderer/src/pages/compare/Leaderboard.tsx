import { useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { hrefOf } from '../../app/routes.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { CompareIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { useLoader } from '../../ui/useLoader.js';
import type { Leaderboard as LeaderboardData } from './types.js';

/** Where a rating sits on the shared axis of every interval, in percent. */
function scale(data: LeaderboardData['data']) {
  const low = Math.min(...data.map((e) => e.ci_low));
  const high = Math.max(...data.map((e) => e.ci_high));
  const span = Math.max(1, high - low);
  return (x: number) => `${(((x - low) / span) * 100).toFixed(1)}%`;
}

function Table({ board }: { board: LeaderboardData }) {
  const intl = useIntl();
  const at = scale(board.data);
  return (
    <div className="table-wrap">
      <table className="table leaderboard">
        <caption className="visually-hidden">{intl.formatMessage({ id: 'compare.leaderboard.caption' })}</caption>
        <thead>
          <tr>
            <th scope="col">{intl.formatMessage({ id: 'compare.leaderboard.rank' })}</th>
            <th scope="col">{intl.formatMessage({ id: 'compare.leaderboard.model' })}</th>
            <th scope="col" className="num">
              {intl.formatMessage({ id: 'compare.leaderboard.rating' })}
            </th>
            <th scope="col">{intl.formatMessage({ id: 'compare.leaderboard.interval' })}</th>
            <th scope="col" className="num">
              {intl.formatMessage({ id: 'compare.leaderboard.votes' })}
            </th>
            <th scope="col" className="num">
              {intl.formatMessage({ id: 'compare.leaderboard.record' })}
            </th>
          </tr>
        </thead>
        <tbody>
          {board.data.map((e) => (
            <tr key={e.model_id}>
              <td>
                {board.data.some((o) => o !== e && o.rank === e.rank) ? (
                  <>
                    <span aria-hidden="true">{intl.formatMessage({ id: 'compare.leaderboard.rankTied' }, { rank: e.rank })}</span>
                    <span className="visually-hidden">{intl.formatMessage({ id: 'compare.leaderboard.rankTiedLabel' }, { rank: e.rank })}</span>
                  </>
                ) : (
                  e.rank
                )}
              </td>
              <td className="cell-primary">{e.model_name}</td>
              <td className="num">{Math.round(e.rating)}</td>
              <td>
                <div className="interval">
                  <span className="interval-text">
                    {intl.formatMessage({ id: 'compare.leaderboard.range' }, { low: Math.round(e.ci_low), high: Math.round(e.ci_high) })}
                  </span>
                  <span className="interval-track" aria-hidden="true">
                    <span className="interval-range" style={{ left: at(e.ci_low), right: `calc(100% - ${at(e.ci_high)})` }} />
                    <span className="interval-point" style={{ left: at(e.rating) }} />
                  </span>
                </div>
              </td>
              <td className="num">{e.votes}</td>
              <td className="num">
                {intl.formatMessage({ id: 'compare.leaderboard.recordValue' }, { wins: e.wins, losses: e.losses, ties: e.ties })}
                {e.both_bad > 0 ? <span className="muted"> {intl.formatMessage({ id: 'compare.leaderboard.allBad' }, { count: e.both_bad })}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Ratings from every vote in the organization (Bradley–Terry), with their 95% intervals. */
export function Leaderboard() {
  const intl = useIntl();
  const { state, reload } = useLoader(() => client.call('comparisons.leaderboard', {}));
  return (
    <Loadable state={state} reload={reload} loading={intl.formatMessage({ id: 'compare.leaderboard.loading' })} failed={intl.formatMessage({ id: 'compare.leaderboard.failed' })}>
      {(board) =>
        board.data.length === 0 ? (
          <EmptyState
            icon={<CompareIcon size={22} />}
            title={intl.formatMessage({ id: 'compare.leaderboard.emptyTitle' })}
            level={3}
            actions={
              <a className="btn btn-primary btn-md" href={hrefOf('compare')}>
                {intl.formatMessage({ id: 'compare.leaderboard.compareModels' })}
              </a>
            }
          >
            <p>{intl.formatMessage({ id: 'compare.leaderboard.emptyBody' })}</p>
          </EmptyState>
        ) : (
          <div className="leaderboard-view">
            <Table board={board} />
            <p className="leaderboard-note muted">
              {intl.formatMessage({ id: 'compare.leaderboard.note' }, { count: board.total_votes })}
            </p>
          </div>
        )
      }
    </Loadable>
  );
}
