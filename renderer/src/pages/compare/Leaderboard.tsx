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
  const at = scale(board.data);
  return (
    <div className="table-wrap">
      <table className="table leaderboard">
        <caption className="visually-hidden">Models ranked by rating, with 95% intervals</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Rating
            </th>
            <th scope="col">95% interval</th>
            <th scope="col" className="num">
              Votes
            </th>
            <th scope="col" className="num">
              Won · lost · tied
            </th>
          </tr>
        </thead>
        <tbody>
          {board.data.map((e) => (
            <tr key={e.model_id}>
              <td>{e.rank}</td>
              <td className="cell-primary">{e.model_name}</td>
              <td className="num">{Math.round(e.rating)}</td>
              <td>
                <div className="interval">
                  <span className="interval-text">
                    {Math.round(e.ci_low)}–{Math.round(e.ci_high)}
                  </span>
                  <span className="interval-track" aria-hidden="true">
                    <span className="interval-range" style={{ left: at(e.ci_low), right: `calc(100% - ${at(e.ci_high)})` }} />
                    <span className="interval-point" style={{ left: at(e.rating) }} />
                  </span>
                </div>
              </td>
              <td className="num">{e.votes}</td>
              <td className="num">
                {e.wins} · {e.losses} · {e.ties}
                {e.both_bad > 0 ? <span className="muted"> ({e.both_bad} all bad)</span> : null}
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
  const { state, reload } = useLoader(() => client.call('comparisons.leaderboard', {}));
  return (
    <Loadable state={state} reload={reload} loading="Loading the leaderboard…" failed="The leaderboard could not be loaded">
      {(board) =>
        board.data.length === 0 ? (
          <EmptyState icon={<CompareIcon size={22} />} title="No votes yet" level={3} actions={<a className="btn btn-primary btn-md" href={hrefOf('compare')}>Compare models</a>}>
            <p>Compare two or more models and vote for the better answer: every vote moves the ratings here.</p>
          </EmptyState>
        ) : (
          <div className="leaderboard-view">
            <Table board={board} />
            <p className="leaderboard-note muted">
              {board.total_votes} {board.total_votes === 1 ? 'vote' : 'votes'}. Bradley–Terry ratings on an Elo-like scale: 1000 is average, and 400
              points is 10:1 odds. The bars show 95% intervals (a bootstrap over the votes): overlapping bars mean the votes do not yet tell those
              models apart. A tie counts half a win each way; “all bad” votes are counted but do not move the ratings.
            </p>
          </div>
        )
      }
    </Loadable>
  );
}
