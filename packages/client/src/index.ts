// The public entry of @till/client. Everything an app may use is named here; nothing else is public.
export { createTill } from './create-till.js';
export type { Till, TillOptions } from './create-till.js';

export { ApiClient } from './api-client.js';
export type { ApiClientOptions, UpdateInfoChanges } from './api-client.js';
export { StoreClient } from './store-client.js';
export type { StoreClientOptions, CheckoutInput } from './store-client.js';
export type { TokenUse, CallSpec } from './transport.js';

export { Session } from './session.js';
export type { SessionState, SessionEvent, SessionEndReason, SessionListener, SessionOptions } from './session.js';
export { preferencesStorage, memoryStorage } from './session-storage.js';
export type { SessionStorage, PreferencesLike } from './session-storage.js';

export { CallQueue, replaceTokenPlaceholders } from './call-queue.js';
export type { CallQueueOptions } from './call-queue.js';

export { createServiceCall } from './service-call.js';
export type { ServiceCall, ServiceCallOptions } from './service-call.js';
export { buildFormData, needsMultipart, parseDataUri } from './form-data.js';
export type { UploadFile, UploadFiles } from './form-data.js';
export { MIME_EXTENSIONS, extensionFor } from './mime.js';

export { OrderPoller } from './order-poller.js';
export type { PollEntry, OrderPollerOptions } from './order-poller.js';

export { PurchaseFlow } from './purchase-flow.js';
export { PURCHASE_NOT_VERIFIED, verifiedProducts } from './purchase-verification.js';
export { TRANSACTION_TRANSITIONS, TransactionStates } from './purchase-transactions.js';
export type { TransactionState } from './purchase-transactions.js';
export type {
  PurchaseFlowOptions,
  PurchaseProduct,
  PurchaseProductInput,
  PurchaseValidator,
  StoreMessage,
} from './purchase-types.js';
export type {
  StoreAdapter,
  StoreAdapterEvent,
  StoreProductDefinition,
  AdapterProductState,
  AdapterTransaction,
  AdapterOrderResult,
} from './store-adapter.js';
export { CdvPurchaseAdapter, CDV_PRODUCT_TYPES, CdvPlatform } from './adapters/cdv-purchase.js';
export type { CdvPurchaseAdapterOptions } from './adapters/cdv-purchase.js';
export type {
  CdvStoreLike,
  CdvProductLike,
  CdvOfferLike,
  CdvTransactionLike,
  CdvErrorLike,
  CdvWhenLike,
} from './adapters/cdv-store.js';
export { FakeStoreAdapter } from './adapters/fake-store.js';
export type { FakeStoreOptions, FakeOrderOutcome } from './adapters/fake-store.js';

export { clientFailure } from './answers.js';
export type { Answer, DataAnswer, ClientFailure } from './answers.js';
export type {
  OkBody,
  GetCouponData,
  RedeemCouponData,
  CreditProducts,
  PayWithCreditsData,
  DoCheckoutData,
  GetCheckoutFormData,
  OrderStatusData,
} from './protocol-types.js';

export { TillError } from './errors/till-error.js';
export type { FailureReason, RequestInfo } from './errors/till-error.js';
export { HttpError } from './errors/http-error.js';
export { TimeoutError } from './errors/timeout-error.js';
export { NetworkError } from './errors/network-error.js';
export { BodyError } from './errors/body-error.js';
export { DroppedError } from './errors/dropped-error.js';
