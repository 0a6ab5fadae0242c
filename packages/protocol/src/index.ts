export { Code, InputReason, CouponReason } from './codes.js';
export type { CodeValue, InputReasonValue, CouponReasonValue } from './codes.js';
export {
  Timeouts,
  ORDER_POLL_INTERVAL_MS,
  Level,
  ProductType,
  OrderStatus,
  PROVIDERS,
  PASSWORD_MIN,
  PASSWORD_MAX,
  TOKEN_PLACEHOLDER,
  Paths,
} from './constants.js';
export type { LevelValue, ProductTypeValue, OrderStatusValue, Provider } from './constants.js';
export * from './objects.js';
export * from './account.js';
export * from './store.js';
export * from './files.js';
export * from './responses.js';
