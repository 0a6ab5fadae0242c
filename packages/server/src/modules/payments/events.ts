import type { Transaction } from 'kysely';
import type { Provider } from '@till/protocol';
import type { Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';

/**
 * Takes a provider event's key (provider, event id) inside the caller's transaction. Answers false
 * when the key was taken already: the event was applied before, and the caller changes nothing. On
 * PostgreSQL a replay racing the first waits on the key until the first commits.
 */
export async function claimEvent(
  trx: Transaction<Database>,
  event: { provider: Provider; eventId: string; orderId: string; outcome: string },
  now: number,
): Promise<boolean> {
  const fresh = await trx
    .insertInto('payment_events')
    .values({
      provider: event.provider,
      event_id: event.eventId,
      order_id: event.orderId,
      outcome: event.outcome,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return fresh !== undefined;
}

/** The order a provider event was applied to, if it was. */
export async function orderOfEvent(x: Executor, provider: Provider, eventId: string): Promise<string | undefined> {
  const row = await x
    .selectFrom('payment_events')
    .select('order_id')
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row?.order_id;
}
