import type { FastifyInstance } from 'fastify';

/** Routes that still answer while the server drains: the orchestrator's probes. */
export const HEALTH_PATH = '/api/health';
export const READY_PATH = '/api/ready';

/**
 * The drain before a shutdown. Once {@link Drain.start} is called the server takes no new work:
 * readiness answers 503 (so the load balancer stops sending), liveness keeps answering (so the
 * process is not killed while it finishes), every other new request gets a protocol-shaped 503
 * with `Connection: close`, and idle keep-alive connections are closed. The requests already in
 * flight run on until they finish or the grace runs out; then their connections are cut, and what
 * they were writing is cleaned up by the storage's close.
 */
export class Drain {
  private draining = false;
  private inFlight = 0;
  private settled: (() => void) | undefined;
  // One listener shared by every response: a closure and a `once` wrapper per request were a
  // measurable share of the lightest calls.
  private readonly finished = () => {
    this.inFlight -= 1;
    if (this.inFlight === 0) this.settled?.();
  };

  get active(): boolean {
    return this.draining;
  }

  /** Registers the hooks; after the security headers, so that a 503 carries them too. */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', (request, reply, done) => {
      if (!this.draining) {
        // Counted until the response is over, whether sent or cut: `close` fires once in both cases.
        this.inFlight += 1;
        reply.raw.on('close', this.finished);
        done();
        return;
      }
      void reply.header('connection', 'close');
      const path = request.url.split('?', 1)[0];
      if (path === HEALTH_PATH || path === READY_PATH) {
        done();
        return;
      }
      void reply.status(503).send({ code: 503, error: 'unavailable', requestId: request.id });
    });
    // A request that was in flight when the drain began closes its keep-alive connection after answering.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (this.draining) void reply.header('connection', 'close');
      done(null, payload);
    });
  }

  /**
   * Starts the drain and waits for the requests in flight, at most `graceMs`; then cuts the
   * connections still open. Answers how many requests were cut.
   */
  async start(app: FastifyInstance, graceMs: number): Promise<number> {
    this.draining = true;
    app.server.closeIdleConnections();
    if (this.inFlight) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.settled = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
    }
    const cut = this.inFlight;
    app.server.closeAllConnections();
    return cut;
  }
}
