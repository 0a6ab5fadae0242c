import { z } from 'zod';
import { pair, providerConfig } from '../../../../variables.js';

/** The card route (Stripe Checkout): on when both keys are set. */
export interface CardConfig {
  secretKey: string;
  webhookSecret: string;
  /** Base address of a Stripe-compatible API; Stripe's own when unset. */
  apiUrl: string | undefined;
}

/** Stripe's variables: `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` together, or neither. */
export const stripeConfig = providerConfig({
  variables: {
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret key (sk_test_..., sk_live_... or rk_...)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_...)')
      .optional(),
    STRIPE_API_URL: z.url().optional(),
  },
  read(e): CardConfig | undefined {
    const keys = pair(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], [e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET]);
    return keys && { secretKey: keys[0], webhookSecret: keys[1], apiUrl: e.STRIPE_API_URL };
  },
});
