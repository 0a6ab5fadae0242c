// The public entry of @till/client. Everything an app may use is named here; nothing else is public.
// Helpers the parts use among themselves (form encoding, MIME table, transaction states, answer
// builders, the data types of single calls) stay internal: an app gets them through the calls.
export { createTill } from './create-till.js';
export type { Till, TillOptions } from './create-till.js';

export { ApiClient } from './api-client.js';
export type { ApiClientOptions } from './api-client.js';
export type { StepUpHandler } from './transport.js';
export { PasskeysApi } from './passkeys-api.js';
export { SocialApi } from './social-api.js';
export { BackupsApi } from './backups-api.js';
export type { DeletionFields } from './passkeys-api.js';
export { StoreClient } from './store-client.js';
export type { StoreClientOptions } from './store-client.js';

export { Session } from './session.js';
export type { SessionEvent, SessionEndReason, SessionOptions } from './session.js';
export { preferencesStorage, memoryStorage } from './session-storage.js';
export type { SessionStorage } from './session-storage.js';

export { CallQueue } from './call-queue.js';
export type { CallQueueOptions } from './call-queue.js';

export { OrderPoller } from './order-poller.js';
export type { OrderPollerOptions } from './order-poller.js';

export { PurchaseFlow } from './purchase-flow.js';
export type {
  PurchaseFlowOptions,
  PurchaseProduct,
  PurchaseResult,
  RestoreResult,
  StoreMessage,
} from './purchase-types.js';
// What an app needs to write an adapter of its own for another in-app store library.
export type {
  StoreAdapter,
  StoreAdapterEvent,
  StoreProductDefinition,
  AdapterProductState,
  AdapterTransaction,
  AdapterOrderResult,
} from './store-adapter.js';
export { CdvPurchaseAdapter, CdvPlatform } from './adapters/cdv-purchase.js';
export type { CdvPurchaseAdapterOptions } from './adapters/cdv-purchase.js';

export type { Answer, DataAnswer, ClientFailure } from './answers.js';
export type { OrderStatusData } from './protocol-types.js';

export { TillError } from './errors/till-error.js';
export { HttpError } from './errors/http-error.js';
export { TimeoutError } from './errors/timeout-error.js';
export { NetworkError } from './errors/network-error.js';
export { BodyError } from './errors/body-error.js';
export { DroppedError } from './errors/dropped-error.js';
