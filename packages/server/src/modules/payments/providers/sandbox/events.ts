import { z } from 'zod';
import { fail, type Outcome } from '../../../../errors.js';
import type { ProviderEvent } from '../../provider.js';

/** The sandbox's own notification: what the checkout page posts, signed with the server's secret. */
export interface SandboxEvent {
  eventId: string;
  orderId: string;
  outcome: 'paid' | 'failed';
  amount: number;
  currency: string;
}

const eventSchema = z.object({
  eventId: z.string().min(1).max(200),
  orderId: z.string().min(1).max(64),
  outcome: z.enum(['paid', 'failed']),
  amount: z.number().int().min(0),
  currency: z.string().regex(/^[A-Z]{3}$/),
});

/** The event a notification's payload (its signature already checked) stands for. */
export function eventOf(payload: string): Outcome<ProviderEvent> {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return fail.invalidInput('payload', 'invalid');
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) return fail.invalidInput('payload', 'invalid');
  const { eventId, orderId, outcome, amount, currency } = parsed.data;
  return outcome === 'paid'
    ? { kind: 'paid', eventId, orderId, amount, currency }
    : { kind: 'failed', eventId, orderId };
}
