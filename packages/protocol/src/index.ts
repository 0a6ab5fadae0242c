export { Code, InputReason, CouponReason, PaymentReason, ConflictReason } from './codes.js';
export type {
  CodeValue,
  InputReasonValue,
  CouponReasonValue,
  PaymentReasonValue,
  ConflictReasonValue,
} from './codes.js';
export * from './reasons.js';
export {
  Timeouts,
  ORDER_POLL_INTERVAL_MS,
  Level,
  ProductType,
  OrderStatus,
  PROVIDERS,
  APP_WEB_PAYMENTS,
  APP_ORIGINS,
  PASSWORD_MIN,
  PASSWORD_MAX,
  TOKEN_PLACEHOLDER,
  Paths,
  StorePaths,
  SecurityPaths,
  PasskeyPaths,
  SocialPaths,
  BackupPaths,
} from './constants.js';
export type { LevelValue, ProductTypeValue, OrderStatusValue, Provider, AppWebPayments } from './constants.js';
export * from './objects.js';
export * from './account.js';
export * from './checkout.js';
export * from './files.js';
export * from './responses.js';
export * from './coupons.js';
export * from './orders.js';
export * from './catalog.js';
export * from './credits.js';
export * from './entitlements.js';
export * from './payments.js';
export * from './paging.js';
export {
  periodSchema,
  productInput,
  adminProductsListRequest,
  adminProductsListData,
  adminProductSaveRequest,
  adminProductSaveData,
  couponCodeSchema,
  couponInput,
  adminCouponSchema,
  adminCouponsListRequest,
  adminCouponsListData,
  adminCouponSaveRequest,
  adminCouponSaveData,
  adminCouponsBulkRequest,
  adminCouponsBulkData,
  adminUserSchema,
  adminUsersListRequest,
  adminUsersListData,
  adminCreditsAdjustRequest,
  adminCreditsAdjustData,
  adminCreditsHistoryRequest,
  adminCreditsHistoryData,
  adminOrderSchema,
  orderPaymentSchema,
  adminRefundSchema,
  adminOrdersListRequest,
  adminOrdersListData,
  adminOrderRefundRequest,
  adminOrderRefundData,
} from './admin.js';
export type {
  ProductInput,
  AdminProductsListData,
  AdminProductSaveData,
  CouponInput,
  AdminCoupon,
  AdminCouponsListData,
  AdminCouponSaveData,
  AdminCouponsBulkData,
  AdminUser,
  AdminUsersListData,
  AdminCreditsAdjustData,
  AdminCreditsHistoryData,
  AdminOrder,
  OrderPayment,
  AdminRefund,
  AdminOrdersListRequest,
  AdminOrdersListData,
  AdminOrderRefundData,
} from './admin.js';
export {
  SHOP_LANGUAGES,
  DEFAULT_LANGUAGE,
  TRANSLATED_LANGUAGES,
  shopLanguageSchema,
  pickLanguage,
  productTextSchema,
  productTextsSchema,
} from './languages.js';
export type { ShopLanguage, ProductText, ProductTexts } from './languages.js';
export { productImageSchema, adminProductSchema } from './admin.js';
export type { AdminProduct, AdminOrderRefundRequest } from './admin.js';
export {
  adminCouponSetActiveRequest,
  adminCouponSetActiveData,
  assignableLevelSchema,
  adminUserGetRequest,
  adminUserGetData,
  adminUserSetLevelRequest,
  adminUserSetLevelData,
  adminUserClearFlagRequest,
  adminUserClearFlagData,
} from './admin.js';
export type { AdminCouponSetActiveData, AdminUserGetData, AdminUserSetLevelData } from './admin.js';
export {
  TOTP_DIGITS,
  TOTP_PERIOD,
  RECOVERY_CODE_COUNT,
  totpCodeSchema,
  recoveryCodeSchema,
  secondFactorRequiredResponse,
  loginSecondFactorRequest,
  secondFactorStatusData,
  totpSetupData,
  totpEnableRequest,
  totpEnableData,
  totpDisableRequest,
  recoveryCodesRequest,
  recoveryCodesData,
  stepUpRequest,
  stepUpData,
  SECURITY_EVENT_KINDS,
  securityLogEntrySchema,
  securityLogRequest,
  securityLogData,
  adminSecurityLogRequest,
  adminResetSecondFactorRequest,
  adminResetSecondFactorData,
  securityResponses,
} from './security.js';
export type {
  SecondFactorRequired,
  LoginSecondFactorRequest,
  SecondFactorStatusData,
  TotpSetupData,
  TotpEnableData,
  RecoveryCodesData,
  StepUpRequest,
  StepUpData,
  SecurityEventKind,
  SecurityLogEntry,
  SecurityLogData,
} from './security.js';
export * from './passkeys.js';
export * from './backups.js';
export * from './social.js';
