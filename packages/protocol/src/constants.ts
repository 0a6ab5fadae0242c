/**
 * Numbers the specification fixes, shared by the server, the SDK and the web app.
 *
 * @example
 * axios.create({ timeout: Timeouts.apiMs });
 */
export const Timeouts = {
  /** Account calls to the API host. */
  apiMs: 50_000,
  /** Store calls to the store host. */
  storeMs: 5_000,
} as const;

/**
 * How often the order poller asks for every queued order.
 *
 * @example
 * setInterval(pollAll, ORDER_POLL_INTERVAL_MS);
 */
export const ORDER_POLL_INTERVAL_MS = 2_000;

/**
 * Account levels.
 *
 * @example
 * if (user.level >= Level.Admin) showAdminMenu();
 */
export const Level = {
  Anonymous: 0,
  Registered: 1,
  Confirmed: 2,
  Admin: 9,
} as const;
export type LevelValue = (typeof Level)[keyof typeof Level];

/**
 * Product types.
 *
 * @example
 * const label = product.type === ProductType.Subscription ? 'per month' : '';
 */
export const ProductType = {
  Consumable: 0,
  NonConsumable: 1,
  Subscription: 2,
} as const;
export type ProductTypeValue = (typeof ProductType)[keyof typeof ProductType];

/**
 * Order statuses; every status but `pending` is final for the poller.
 *
 * @example
 * const done = order.status !== OrderStatus.Pending;
 */
export const OrderStatus = {
  Pending: 'pending',
  Paid: 'paid',
  Failed: 'failed',
  Cancelled: 'cancelled',
  Refunded: 'refunded',
} as const;
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

/**
 * Payment routes an order can be paid through.
 *
 * @example
 * if (order.provider === 'credits') showBalance();
 */
export const PROVIDERS = ['credits', 'default', 'card', 'paywall', 'appstore', 'googleplay', 'test'] as const;
export type Provider = (typeof PROVIDERS)[number];

/**
 * Whether the phone apps offer the server's web payment routes (card, payment wall, the sandbox)
 * besides their in-app store (`APP_WEB_PAYMENTS`). `hidden`, the default, is what Apple's App
 * Review Guideline 3.1.1 and Google Play's Payments policy ask of an app selling digital goods;
 * `shown` only where a store lets the app link to paying on the web (a region or program of its own).
 *
 * @example
 * if (form.app.webPayments === 'hidden') offerOnlyTheStore();
 */
export const APP_WEB_PAYMENTS = ['hidden', 'shown'] as const;
export type AppWebPayments = (typeof APP_WEB_PAYMENTS)[number];

/**
 * The origins the phone apps' pages call the server from (Capacitor's defaults): the Android
 * shell's and the iOS shell's. The server tells a call from an app by its `Origin`.
 *
 * @example
 * const inApp = Object.values(APP_ORIGINS).includes(location.origin);
 */
export const APP_ORIGINS = { android: 'https://localhost', ios: 'capacitor://localhost' } as const;

/**
 * Password length bounds (no composition rules).
 *
 * @example
 * if (pw.length < PASSWORD_MIN) warn();
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The placeholder in queued calls that is replaced by the new token after login. */
export const TOKEN_PLACEHOLDER = '[TOKEN]';

/**
 * Well-known paths of the protocol (no leading slash, as service paths are written).
 *
 * @example
 * client.post(Paths.login, { email, password });
 */
export const Paths = {
  login: 'api/login',
  register: 'api/register',
  genResetLink: 'api/genResetLink',
  resetPassword: 'api/resetPassword',
  confirmUser: 'api/confirmUser',
  getUserInfo: 'api/auth/getUserInfo',
  updateInfo: 'api/auth/updateInfo',
  logout: 'api/auth/logout',
  sessions: 'api/auth/sessions',
  revokeSessions: 'api/auth/revokeSessions',
  endSession: 'api/auth/endSession',
  getCoupon: 'api/store/getCoupon',
  redeemCoupon: 'api/store/redeemCoupon',
  payWithCredits: 'api/auth/payWithCredits',
  doCheckout: 'api/store/doCheckout',
  getCheckoutForm: 'api/store/getCheckoutForm',
  orderStatus: 'api/store/orderStatus',
  validatePurchase: 'api/store/validatePurchase',
  filesUpload: 'api/files/upload',
  filesList: 'api/files/list',
  filesDelete: 'api/files/delete',
} as const;

/**
 * Paths of the store and admin calls beyond the protocol's own (no leading slash).
 *
 * @example
 * client.post(StorePaths.credits, { token, page: 1 });
 */
export const StorePaths = {
  products: 'api/store/products',
  product: 'api/store/product',
  orders: 'api/store/orders',
  entitlements: 'api/store/entitlements',
  credits: 'api/store/credits',
  cancelOrder: 'api/store/cancelOrder',
  endSubscription: 'api/store/endSubscription',
  checkoutPreview: 'api/store/checkoutPreview',
  filesLimits: 'api/files/limits',
  paymentNotify: 'api/payments/notify',
  adminProductsList: 'api/admin/products/list',
  adminProductsSave: 'api/admin/products/save',
  adminCouponsList: 'api/admin/coupons/list',
  adminCouponsSave: 'api/admin/coupons/save',
  adminCouponsBulk: 'api/admin/coupons/bulk',
  adminUsersList: 'api/admin/users/list',
  adminCreditsAdjust: 'api/admin/credits/adjust',
  adminCreditsHistory: 'api/admin/credits/history',
  adminOrdersList: 'api/admin/orders/list',
  adminOrdersRefund: 'api/admin/orders/refund',
  adminCouponsSetActive: 'api/admin/coupons/setActive',
  adminUsersGet: 'api/admin/users/get',
  adminUsersSetLevel: 'api/admin/users/setLevel',
  adminUsersClearFlag: 'api/admin/users/clearFlag',
} as const;

/**
 * Paths of the second-factor and security-log calls (no leading slash).
 *
 * @example
 * client.post(SecurityPaths.loginSecondFactor, { challenge, code: '123456' });
 */
export const SecurityPaths = {
  loginSecondFactor: 'api/login/secondFactor',
  secondFactorStatus: 'api/auth/secondFactor/status',
  totpSetup: 'api/auth/totp/setup',
  totpEnable: 'api/auth/totp/enable',
  totpDisable: 'api/auth/totp/disable',
  recoveryCodes: 'api/auth/totp/recoveryCodes',
  securityLog: 'api/auth/securityLog',
  adminUserSecurityLog: 'api/admin/users/securityLog',
  adminResetSecondFactor: 'api/admin/users/resetSecondFactor',
  stepUp: 'api/auth/stepUp',
} as const;

/**
 * Paths of the passkey and account-deletion calls (no leading slash).
 *
 * @example
 * client.post(PasskeyPaths.signInOptions, {});
 */
export const PasskeyPaths = {
  registrationOptions: 'api/auth/passkeys/registrationOptions',
  register: 'api/auth/passkeys/register',
  list: 'api/auth/passkeys/list',
  rename: 'api/auth/passkeys/rename',
  remove: 'api/auth/passkeys/remove',
  confirmOptions: 'api/auth/passkeys/confirmOptions',
  signInOptions: 'api/passkeys/signInOptions',
  signIn: 'api/passkeys/signIn',
  deleteAccount: 'api/auth/deleteAccount',
  adminDeleteUser: 'api/admin/users/delete',
} as const;

/**
 * Paths of the social sign-in calls (Google, Apple, OpenID Connect providers).
 *
 * @example
 * client.post(SocialPaths.providers, {});
 */
export const SocialPaths = {
  providers: 'api/social/providers',
  start: 'api/social/start',
  /** Where providers send the browser back (GET, or POST for `form_post`); not a JSON call. */
  callback: 'api/social/callback',
  /** Where Apple posts its server-to-server notifications (`{ payload }`, a signed JWT); not a JSON call. */
  appleNotifications: 'api/social/apple/notifications',
  finish: 'api/social/finish',
  nonce: 'api/social/nonce',
  idToken: 'api/social/idToken',
  linkWithPassword: 'api/social/linkWithPassword',
  linkByMail: 'api/social/linkByMail',
  confirmLink: 'api/social/confirmLink',
  list: 'api/auth/social/list',
  unlink: 'api/auth/social/unlink',
  /** Linking a provider to the signed-in account: its web flow, bound to the session. */
  connect: 'api/auth/social/connect',
  /** The signed-in session spends the ticket the connect flow came back with. */
  connectFinish: 'api/auth/social/connectFinish',
} as const;

/**
 * The administrators' backup calls' paths. Kept with the other constants so that importing a path
 * never loads the schemas (and zod) into the web app's first screen.
 */
export const BackupPaths = {
  list: 'api/admin/backups/list',
  start: 'api/admin/backups/start',
  link: 'api/admin/backups/link',
} as const;
