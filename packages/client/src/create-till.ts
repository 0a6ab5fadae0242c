import type { AxiosRequestConfig } from 'axios';
import { ApiClient } from './api-client.js';
import { CallQueue } from './call-queue.js';
import { OrderPoller } from './order-poller.js';
import { PurchaseFlow } from './purchase-flow.js';
import type { PurchaseFlowOptions } from './purchase-types.js';
import type { ServiceCall } from './service-call.js';
import { Session } from './session.js';
import type { SessionStorage } from './session-storage.js';
import type { StepUpHandler } from './transport.js';
import { StoreClient } from './store-client.js';

/**
 * Options of {@link createTill}.
 *
 * @example
 * const options: TillOptions = { apiHost: 'https://api.example.com', storage: window.localStorage };
 */
export interface TillOptions {
  /** API host for account and service calls; default the app's own origin. */
  apiHost?: string;
  /** Store host for store calls; default the app's own origin. */
  storeHost?: string;
  /** Keeps the session across reloads (web storage, {@link preferencesStorage}). */
  storage?: SessionStorage;
  /** Key of the stored session; default `till.session`. */
  storageKey?: string;
  /** Bounds of the queue of calls waiting for a login. */
  queue?: { maxSize?: number; maxAgeMs?: number };
  /** Timeouts in ms; default 50 000 (API) and 5 000 (store), the specification's. */
  timeouts?: { apiMs?: number; storeMs?: number };
  /** axios adapter for both clients (`'fetch'`, or a test double). */
  adapter?: AxiosRequestConfig['adapter'];
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
  /**
   * The app's language now (`de`), sent with every call as `Accept-Language`: product texts and
   * the payment page come in it.
   */
  language?: () => string | null | undefined;
  /** Asked for the password (and code) when a call needs a recent proof (914); see {@link StepUpHandler}. */
  stepUp?: StepUpHandler;
}

/**
 * One wired client: the session and its queue shared by the account and store clients, and the
 * order poller on the store client. Every part is an instance: two `createTill` calls share nothing.
 *
 * @example
 * const till: Till = createTill();
 * till.session.subscribe((e) => console.log(e.type));
 */
export interface Till {
  api: ApiClient;
  session: Session;
  queue: CallQueue;
  store: StoreClient;
  poller: OrderPoller;
  /** `api.serviceCall`. */
  serviceCall: ServiceCall;
  /** Makes a {@link PurchaseFlow} that verifies through this client's store. */
  createPurchaseFlow(options: Omit<PurchaseFlowOptions, 'store'>): PurchaseFlow;
}

/**
 * Creates the SDK for an app: `{ api, session, queue, store, poller, serviceCall }` wired together.
 *
 * @example
 * const till = createTill({ apiHost: 'https://api.example.com', storage: window.localStorage });
 * const res = await till.api.login({ email, password });
 * if (res.code === 900) await till.serviceCall('api/files/list', { page: 1 });
 */
export function createTill(options: TillOptions = {}): Till {
  const now = options.now ?? Date.now;
  const session = new Session({
    now,
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.storageKey ? { storageKey: options.storageKey } : {}),
  });
  const queue = new CallQueue({ session, now, ...options.queue });
  const shared = {
    session,
    queue,
    ...(options.adapter ? { adapter: options.adapter } : {}),
    ...(options.language ? { language: options.language } : {}),
    ...(options.stepUp ? { stepUp: options.stepUp } : {}),
  };
  const api = new ApiClient({
    ...shared,
    ...(options.apiHost !== undefined ? { apiHost: options.apiHost } : {}),
    ...(options.timeouts?.apiMs !== undefined ? { timeout: options.timeouts.apiMs } : {}),
  });
  const store = new StoreClient({
    ...shared,
    ...(options.storeHost !== undefined ? { storeHost: options.storeHost } : {}),
    ...(options.timeouts?.storeMs !== undefined ? { timeout: options.timeouts.storeMs } : {}),
  });
  const poller = new OrderPoller({ store });
  return {
    api,
    session,
    queue,
    store,
    poller,
    serviceCall: api.serviceCall,
    createPurchaseFlow: (flowOptions) => new PurchaseFlow({ ...flowOptions, store }),
  };
}
