/**
 * Shutting down over HTTP: the listener stays open while the requests under way finish, and every
 * new request meanwhile — on a new connection or a kept-alive one — is answered `503 unavailable`
 * (a problem, with `Connection: close`), as documented, instead of being refused at the TCP level.
 * Once the last request under way has ended (or after a grace period), the server closes.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../../shared/errors.js';

/** How long a request still under way (a stalled upload, say) may hold the shutdown. */
export const DRAIN_GRACE_MS = 10_000;

export class Drain {
  private draining = false;
  private inFlight = 0;
  private settled: (() => void) | null = null;

  /** `accepting`: whether the core still takes requests — its shutdown begins before the server's. */
  constructor(private readonly accepting: () => boolean = () => true) {}

  /** Counts requests, and refuses new ones once draining; add it right after the Host check. */
  install(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (this.draining || !this.accepting()) {
        reply.header('Connection', 'close');
        throw new ServiceError('unavailable', 'Parley is shutting down and accepts no new requests; try again once it has restarted.');
      }
      this.inFlight++;
      // `close` fires for every response: sent, failed or cut off.
      reply.raw.once('close', () => {
        this.inFlight--;
        if (this.inFlight === 0) this.settled?.();
      });
    });
  }

  /** From now on new requests get 503; resolves once none of those under way is left (or the grace ran out). */
  async drain(graceMs = DRAIN_GRACE_MS): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      timer.unref();
      this.settled = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
