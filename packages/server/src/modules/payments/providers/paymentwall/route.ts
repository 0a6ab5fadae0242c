import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/schema.js';
import { Failure } from '../../../../errors.js';
import type { PaymentPorts } from '../../provider.js';
import { orderOfRef } from '../../refs.js';
import { pingbackAction, type PingbackTarget } from './events.js';
import { readPingback, type IpAllowList, type PingbackEvent } from './pingback.js';

export const PINGBACK_PATH = '/api/payments/pingback/paymentwall';

/** Paymentwall counts a pingback as handled when, and only when, the answer's body is exactly `OK`. */
const OK = 'OK';
const ERROR = 'ERROR';

export interface PingbackRouteOptions {
  /** For the payments module's own table of provider references. */
  db: Kysely<Database>;
  secretKey: string;
  allow: IpAllowList;
}

function answer(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(body);
}

/** The order a verified pingback names, as far as mapping it needs. */
async function targetOf(
  db: Kysely<Database>,
  ports: PaymentPorts,
  event: PingbackEvent,
): Promise<PingbackTarget | undefined> {
  const order = await ports.findOrder(event.goodsId);
  if (!order) return undefined;
  const [buyer, periods, refOrder] = await Promise.all([
    ports.buyerOf(order.iden),
    ports.periodsOf(order.iden),
    orderOfRef(db, 'paywall', event.ref),
  ]);
  return { order, buyer, subscription: periods.some((p) => p !== null), refOrder };
}

/**
 * Paymentwall's pingbacks. The sender's address (`request.ip`: behind the production proxy, the
 * client address it forwards) is checked against the allow list, then the signature; nothing is
 * read from a pingback that fails either, and it is answered 403 `ERROR`. A verified pingback is
 * mapped to a provider event (`events.ts`) and applied once per `ref` and `type`: the answer is
 * `OK` when it is applied, was applied before, or needs nothing; an error when it cannot be
 * applied (an unknown order, an amount that does not match), so that Paymentwall sends it again.
 */
export async function registerPingbackRoute(
  app: FastifyInstance,
  options: PingbackRouteOptions,
  ports: PaymentPorts,
): Promise<void> {
  app.get(PINGBACK_PATH, async (request, reply) => {
    // The raw query keeps `name[key]` parameters exactly as signed.
    const url = request.raw.url ?? '';
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    const read = readPingback(query, request.ip, { secretKey: options.secretKey, allow: options.allow });
    if (!read.ok) {
      request.log.warn({ ip: request.ip, reason: read.reason }, 'paymentwall pingback refused');
      return answer(reply, read.reason === 'malformed' ? 400 : 403, ERROR);
    }
    const event = read.event;
    const seen = { ref: event.ref, type: event.type, order: event.goodsId, test: event.isTest };
    const action = pingbackAction(event, await targetOf(options.db, ports, event));
    if (action.do === 'ignore') {
      request.log.info({ ...seen, why: action.why }, 'paymentwall pingback ignored');
      return answer(reply, 200, OK);
    }
    if (action.do === 'refuse') {
      request.log.warn({ ...seen, why: action.why }, 'paymentwall pingback not applied');
      return answer(reply, action.why === 'unknown order' ? 404 : 409, ERROR);
    }
    const applied = await ports.applyEvent('paywall', action.event);
    if (applied instanceof Failure) {
      request.log.warn({ ...seen, outcome: applied.body }, 'paymentwall pingback not applied');
      return answer(reply, applied.body.code === 904 ? 404 : 409, ERROR);
    }
    return answer(reply, 200, OK);
  });
}
