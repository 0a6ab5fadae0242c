// What an app's own tests use in place of the real parts: `@till/client/testing`, apart from the SDK's
// main entry so that an app's production bundle cannot reach a test double by mistake.
export { FakeStoreAdapter } from './adapters/fake-store.js';
export type { FakeOrderOutcome, FakeStoreOptions } from './adapters/fake-store.js';
