import {
  dataResponse,
  Level,
  paymentNotificationData,
  paymentNotificationRequest,
  providerSchema,
  validatePurchaseData,
  validatePurchaseRequest,
} from '@till/protocol';
import type { CallRegistry } from '../http/calls.js';
import { asData } from '../modules/store/routes.js';
import type { PaymentsService } from './apply-payment-event.js';
import type { TestValidator } from './validate-purchase.js';

const tag = 'payments';

/** Provider notifications and the in-app purchase validator. */
export function registerPaymentRoutes(calls: CallRegistry, payments: PaymentsService, validator: TestValidator): void {
  calls.define({
    path: '/api/payments/notify/:provider',
    summary: "A provider's signed notification; the same event is applied once (904 for a provider not configured).",
    tag,
    params: true,
    request: paymentNotificationRequest.extend({ provider: providerSchema }),
    response: dataResponse(paymentNotificationData),
    handler: async (input) => asData(await payments.applyNotification(input.provider, input.payload, input.signature)),
  });
  calls.define({
    path: '/api/store/validatePurchase',
    summary: 'Check an in-app store transaction (`transactionData`, JSON text) and record it as a paid order.',
    tag,
    auth: Level.Registered,
    request: validatePurchaseRequest,
    response: dataResponse(validatePurchaseData),
    handler: async (input, ctx) => asData(await validator.validate(ctx.caller.userId, input.transactionData)),
  });
}
