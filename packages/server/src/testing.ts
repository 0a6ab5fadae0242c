// What the test support (`@till/test-support`: test apps, databases, the providers' fakes) reaches
// inside the server for, apart from the package's main entry. It is not built (tsconfig.json leaves it
// out), so the production server carries none of it, and lint lets only tests import it.
export type { Dialect } from './db/connect.js';
export type { Job, JobRunner } from './db/jobs.js';
export type { Executor } from './db/rows.js';
export { AnswerCheck } from './http/answer-check.js';
export { escapeHtml } from './http/html.js';
export { openStorage } from './modules/files/storage/open-storage.js';
export type { ObjectStorage } from './modules/files/storage/storage.js';
export type { AppStoreConfig } from './modules/payments/providers/appstore/config.js';
export type { GooglePlayConfig } from './modules/payments/providers/googleplay/config.js';
export { ipAllowList, readPingback, type PingbackResult } from './modules/payments/providers/paymentwall/pingback.js';
export {
  DEFAULT_SIGN_VERSION,
  parseQuery,
  pingbackSignature,
  toSearchParams,
  verifyWidgetSignature,
  type Params,
  type SignVersion,
} from './modules/payments/providers/paymentwall/signature.js';
export { widgetUrl, type WidgetInput } from './modules/payments/providers/paymentwall/widget.js';
export { DefaultProvider } from './modules/payments/providers/sandbox/provider.js';
export type { StoreDeps } from './modules/store/deps.js';
export { PasswordHasher, TEST_ARGON2_SETTINGS } from './security/passwords.js';
export { HashPool } from './security/hash-pool.js';
export type { SecurityEvent, SecurityEventKind, SecurityEvents } from './security/security-events.js';
