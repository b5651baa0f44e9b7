import type { Config } from '../../shared/config.js';
import type { Core } from '../boot.js';
import type { DesktopLog, RunningHttp } from './app.js';
import { errorText } from '../../shared/errors.js';

type Wanted = Pick<Config['server'], 'enabled' | 'host' | 'port'>;

const wanted = (core: Pick<Core, 'config'>): Wanted => {
  const { enabled, host, port } = core.config().server;
  return { enabled, host, port };
};

const same = (a: Wanted | undefined, b: Wanted) => a !== undefined && a.enabled === b.enabled && a.host === b.host && a.port === b.port;

function describeStartFailure(error: unknown, target: Wanted): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${target.port} on ${target.host} is already in use; choose another [server] port.`;
  return `The local HTTP API could not start: ${errorText(error)}`;
}

export interface LocalApi {
  /** Resolves once the server matches the configuration as it is now (or failed to). */
  settled(): Promise<void>;
  /** Stops following the configuration and closes the server, also one still starting. */
  stop(): Promise<void>;
}

/**
 * The desktop's loopback API, kept as `[server] enabled/host/port` say: started at launch, and
 * closed and started again when a saved configuration changes them, so they apply without a
 * restart. Changes are handled one after the other. A server that cannot start (port taken) is
 * logged and recorded on the runtime (`service.server` and the admin state report it); the app
 * goes on without it.
 */
export function superviseLocalApi(core: Core, startHttp: (core: Core) => Promise<RunningHttp>, log: DesktopLog): LocalApi {
  let running: RunningHttp | undefined;
  /** The settings last acted on, whether the server started or not: the same ones are not retried. */
  let applied: Wanted | undefined;
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const closeRunning = async () => {
    const server = running;
    running = undefined;
    await server?.close().catch((error: unknown) => log.error('The HTTP API did not close cleanly', error));
  };

  const reconcile = (): Promise<void> =>
    (chain = chain.then(async () => {
      if (stopped) return;
      const target = wanted(core);
      if (same(applied, target)) return;
      if (applied !== undefined) log.info('The [server] configuration changed: restarting the local HTTP API.');
      await closeRunning();
      applied = target;
      core.runtime.setServerProblem(null);
      if (!target.enabled) return;
      try {
        running = await startHttp(core);
        log.info(`Parley API listening on ${running.url}`);
      } catch (error) {
        const problem = describeStartFailure(error, target);
        core.runtime.setServerProblem(problem);
        log.warn(`The local HTTP API could not start (${errorText(error)}); the app works without it.`);
      }
      // A quit while it was starting: close what just started.
      if (stopped) await closeRunning();
    }));

  const unsubscribe = core.runtime.liveConfig.onChange(({ previous, config }) => {
    if (!same(previous.server, config.server)) void reconcile();
  });
  void reconcile();

  return {
    settled: () => chain,
    stop: async () => {
      stopped = true;
      unsubscribe();
      await chain;
      await closeRunning();
    },
  };
}
