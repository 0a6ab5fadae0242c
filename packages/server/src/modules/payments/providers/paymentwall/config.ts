import { z } from 'zod';
import { pair, providerConfig } from '../../../../variables.js';

/** The payment-wall route (Paymentwall): on when both keys are set. */
export interface PaywallConfig {
  projectKey: string;
  secretKey: string;
  widget: string;
  /** Addresses and ranges pingbacks may come from (`*`: any); Paymentwall's published ones when empty. */
  pingbackIps: string[];
  /** Base address of the widget; Paymentwall's own when unset. */
  apiUrl: string | undefined;
}

/** Paymentwall's variables: `PAYMENTWALL_PROJECT_KEY` and `PAYMENTWALL_SECRET_KEY` together, or neither. */
export const paymentwallConfig = providerConfig({
  variables: {
    PAYMENTWALL_PROJECT_KEY: z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'must be the project key')
      .optional(),
    PAYMENTWALL_SECRET_KEY: z
      .string()
      .regex(/^[A-Za-z0-9]+$/, 'must be the secret key')
      .optional(),
    PAYMENTWALL_WIDGET: z
      .string()
      .regex(/^[A-Za-z0-9_]+$/, 'must be a widget code such as p1_1')
      .default('p1_1'),
    PAYMENTWALL_PINGBACK_IPS: z.string().optional(),
    PAYMENTWALL_API_URL: z.url().optional(),
  },
  read(e): PaywallConfig | undefined {
    const keys = pair(
      ['PAYMENTWALL_PROJECT_KEY', 'PAYMENTWALL_SECRET_KEY'],
      [e.PAYMENTWALL_PROJECT_KEY, e.PAYMENTWALL_SECRET_KEY],
    );
    return (
      keys && {
        projectKey: keys[0],
        secretKey: keys[1],
        widget: e.PAYMENTWALL_WIDGET,
        pingbackIps: (e.PAYMENTWALL_PINGBACK_IPS ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        apiUrl: e.PAYMENTWALL_API_URL,
      }
    );
  },
});
