import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CALLBACK_PATH, refusedLocation } from '../../core/platform/auth/oidc/flow.js';
import type { Service } from '../../core/service/service.js';

/** This server's origin as the browser reached it (the Host check let only loopback names through). */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.headers.host ?? '127.0.0.1'}`;

/**
 * OpenID Connect sign-in (docs/team-server.md): both routes answer with a redirect, never a
 * problem, since a browser follows them: to the provider, then back to the sign-in page, signed in
 * (`#/sign-in/<code>`) or with the reason it was not (`#/sign-in-error/<reason>`).
 */
export function registerOidcRoutes(app: FastifyInstance, service: Service): void {
  const redirect = (request: FastifyRequest, run: () => Promise<string>) =>
    run().catch((error: unknown) => {
      request.log.error({ err: error }, 'OpenID Connect sign-in failed');
      return refusedLocation('failed');
    });

  app.get('/api/auth/oidc/start', { config: { auth: 'none' } }, async (request, reply) => {
    const location = await redirect(request, () => service.oidc.start(originOf(request)));
    return reply.header('Cache-Control', 'no-store').redirect(location, 302);
  });

  app.get(CALLBACK_PATH, { config: { auth: 'none' } }, async (request, reply) => {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const location = await redirect(request, () => service.oidc.callback(query));
    return reply.header('Cache-Control', 'no-store').redirect(location, 302);
  });
}
