import {
  ApiClient,
  CallQueue,
  OrderPoller,
  Session,
  StoreClient,
  type SessionStorage,
  type StepUpHandler,
  type Till,
} from '@till/client';

/** The parts of the SDK the web app uses. */
export type AppSdk = Pick<Till, 'api' | 'session' | 'queue' | 'store' | 'poller' | 'serviceCall'>;

/**
 * Wires the SDK as `createTill` does, minus the in-app purchase flow: the browser never runs it,
 * and leaving it out keeps it (and what it imports) off the first screen. One session and one
 * login queue are shared by the account and store clients, so a call of either waits for a login.
 */
export function createAppSdk(options: {
  apiHost?: string;
  storeHost?: string;
  storage?: SessionStorage;
  /** The interface's language now, sent with every call as `Accept-Language`. */
  language?: () => string | undefined;
  /** Asks the user for the password (and code) when a call needs a recent proof (914). */
  stepUp?: StepUpHandler;
}): AppSdk {
  const session = new Session(options.storage ? { storage: options.storage } : {});
  const queue = new CallQueue({ session });
  const language = options.language ? { language: options.language } : {};
  const api = new ApiClient({
    session,
    queue,
    ...language,
    ...(options.stepUp ? { stepUp: options.stepUp } : {}),
    ...(options.apiHost !== undefined ? { apiHost: options.apiHost } : {}),
  });
  const store = new StoreClient({
    session,
    queue,
    ...language,
    ...(options.storeHost !== undefined ? { storeHost: options.storeHost } : {}),
  });
  return { api, session, queue, store, poller: new OrderPoller({ store }), serviceCall: api.serviceCall };
}
