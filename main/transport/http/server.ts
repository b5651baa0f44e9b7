import type { FastifyBaseLogger } from 'fastify';
import type { Core } from '../../boot.js';
import { buildHttpApp } from './app.js';
import { Drain } from './drain.js';

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** Builds the HTTP app over a booted core and listens on loopback. */
export async function startHttpServer(
  core: Core,
  options: { port: number; host?: string; appVersion: string; rendererDir?: string | undefined; logger?: FastifyBaseLogger | undefined },
): Promise<RunningServer> {
  const drain = new Drain(() => core.runtime.lifecycle.accepting);
  const app = await buildHttpApp({ service: core.service, config: core.config, appVersion: options.appVersion, rendererDir: options.rendererDir, loggerInstance: options.logger, drain });
  const host = options.host ?? core.config().server.host;
  await app.listen({ port: options.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  core.runtime.setBaseUrl(url);
  return {
    url,
    port,
    close: async () => {
      core.runtime.setBaseUrl(null);
      // Still listening: new requests are answered 503 until those under way have ended.
      await drain.drain();
      const closing = app.close();
      // Whatever outlived the grace period is cut off rather than holding the process.
      app.server.closeAllConnections();
      await closing;
    },
  };
}
