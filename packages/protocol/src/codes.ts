/**
 * Every numeric `code` a response body can carry.
 *
 * @example
 * if (res.code === Code.Ok) console.log(res.user);
 */
export const Code = {
  /** Success. */
  Ok: 900,
  /** Token invalid or expired: the client clears its session and returns to level 0. */
  InvalidToken: 901,
  /** Wrong credentials (login, or current password on a sensitive change). */
  WrongCredentials: 902,
  /** Not allowed at this level; carries `required`. */
  Forbidden: 903,
  /** Not found; carries `parameter`. */
  NotFound: 904,
  /** Made by the client, never sent by the server: network or request failure. */
  NetworkError: 905,
  /** Too many requests; carries `retryAfter` in seconds. */
  TooManyRequests: 906,
  /** Invalid input; carries `parameter` and `reason`. */
  InvalidInput: 907,
  /** Coupon cannot be used; carries `reason`. */
  CouponRefused: 908,
  /** Not enough credits; carries `balance` and `required`. */
  NotEnoughCredits: 909,
  /** Payment rejected or not verifiable; carries `reason`. */
  PaymentRejected: 910,
  /** Reset or confirmation token unknown, expired or already used. */
  BadLinkToken: 911,
  /** The order is not in a state that allows this; carries `status`. */
  Conflict: 912,
  /**
   * The password was right and a second factor is on: no session yet, but a short-lived single-use
   * `challenge` for `api/login/secondFactor`; carries `challenge` and `expire` (seconds).
   */
  SecondFactorRequired: 913,
  /**
   * A change of credentials (or an administrator's sensitive action) needs the password, and the
   * second factor when it is on, proven on this session within the last `within` seconds: prove it
   * with `api/auth/stepUp` and call again.
   */
  StepUpRequired: 914,
  /**
   * A provider vouched for an address that already has an account not linked to that provider: no
   * session; prove the account (`api/social/linkWithPassword`, or `api/social/linkByMail`) with the
   * single-use `link` (valid `expire` seconds). Carries `link`, `email`, `provider` and `expire`.
   */
  LinkRequired: 915,
  /** Store message inside the client: ordered. */
  StoreOrdered: 799,
  /** Store message inside the client: finished. */
  StoreFinished: 800,
  /** Store message inside the client: approved. */
  StoreApproved: 801,
  /** Store message inside the client: order error. */
  StoreOrderError: 804,
} as const;

/** A value of {@link Code}. */
export type CodeValue = (typeof Code)[keyof typeof Code];

/**
 * Machine words for 907 `reason`, every one the server sends (`inputReasonSchema`); the client maps
 * them to translated messages.
 *
 * @example
 * if (res.code === 907 && res.reason === InputReason.Taken) showTaken(res.parameter);
 */
export const InputReason = {
  Required: 'required',
  Invalid: 'invalid',
  TooShort: 'too_short',
  TooLong: 'too_long',
  Taken: 'taken',
  Weak: 'weak',
  /** A repeated value differs from the first (`confirm`). */
  Mismatch: 'mismatch',
  /** The cart holds a non-consumable the buyer owns already (`products`). */
  Owned: 'owned',
  /** A product that cannot be bought: switched off, without a price, or priced in another currency. */
  Inactive: 'inactive',
  NoPrice: 'no_price',
  NoCreditPrice: 'no_credit_price',
  Currency: 'currency',
  /** A level change for an address not confirmed yet, or one fixed by `ADMIN_EMAILS`. */
  Unconfirmed: 'unconfirmed',
  Configured: 'configured',
  /** Uploads: a content type not accepted, a file over the limit, over the quota, too many, cut short. */
  Type: 'type',
  TooLarge: 'too_large',
  Quota: 'quota',
  TooMany: 'too_many',
  Incomplete: 'incomplete',
  /** A passkey answer to a challenge that is not this server's or has expired. */
  Challenge: 'challenge',
  /** A provider that does not vouch for the address it gives (`email`): no account is made from it. */
  Unverified: 'unverified',
} as const;
export type InputReasonValue = (typeof InputReason)[keyof typeof InputReason];

/**
 * Reasons for 908 (coupon cannot be used).
 *
 * @example
 * if (res.code === 908 && res.reason === CouponReason.Expired) say('This coupon has expired');
 */
export const CouponReason = {
  Unknown: 'unknown',
  Expired: 'expired',
  NotStarted: 'not_started',
  UsedUp: 'used_up',
  AlreadyRedeemed: 'already_redeemed',
  NotApplicable: 'not_applicable',
  MinTotal: 'min_total',
  /** Switched off by an administrator. */
  Inactive: 'inactive',
  /** A coupon that grants credits or products, given at checkout: it is redeemed on its own instead. */
  GrantCoupon: 'grant_coupon',
  /** A discount given to redeem: it is entered at checkout instead. */
  DiscountCoupon: 'discount_coupon',
} as const;
export type CouponReasonValue = (typeof CouponReason)[keyof typeof CouponReason];

/**
 * Reasons for 910 (payment rejected or not verifiable).
 *
 * @example
 * if (res.code === 910 && res.reason === PaymentReason.Declined) say('The card was declined');
 */
export const PaymentReason = {
  /** The card was declined. */
  Declined: 'declined',
  /** The provider failed or could not be reached. */
  ProviderError: 'provider_error',
  /** The route asked for is not set up on this server, or none is. */
  ProviderUnavailable: 'provider_unavailable',
  NoProvider: 'no_provider',
  /** The order was started with another route. */
  ProviderMismatch: 'provider_mismatch',
  /** A cart that mixes a subscription with other products, which the route cannot take together. */
  SubscriptionMix: 'subscription_mix',
  /** What the provider took differs from the order's amount. */
  AmountMismatch: 'amount_mismatch',
  /** A notification whose signature does not hold. */
  Signature: 'signature',
  /** The order has no payment to act on. */
  NoPayment: 'no_payment',
  /** A store purchase already credited to another order. */
  AlreadyUsed: 'already_used',
  /** A web payment route asked for from inside a phone app while the server hides them there (`APP_WEB_PAYMENTS`). */
  NotInApp: 'not_in_app',
} as const;
export type PaymentReasonValue = (typeof PaymentReason)[keyof typeof PaymentReason];

/**
 * Reasons a 912 may carry besides the order's `status`, when the status alone does not say why.
 *
 * @example
 * if (res.code === 912 && res.reason === ConflictReason.CreditsSpent) say('The buyer has spent those credits');
 */
export const ConflictReason = {
  /** A refund would take back credits the buyer has spent. */
  CreditsSpent: 'credits_spent',
  /** The provider reverses the payment itself (a refund asked of it): the order changes once it confirms. */
  ProviderReverses: 'provider_reverses',
  /** A provider's event the order is not ready for yet (it has not moved on): the provider sends it again later. */
  NotYet: 'not_yet',
  /** What was asked cannot be done on this server's set-up (a backup of a PostgreSQL database). */
  Unavailable: 'unavailable',
  /** What the call would start is under way already (a backup, taken by this server or another). */
  InProgress: 'in_progress',
  /** The order started no subscription that renews by a route the server can stop (endSubscription). */
  NotRenewing: 'not_renewing',
  /** Removing this way of signing in would leave the account with none (no password, passkey or other provider). */
  LastWayIn: 'last_way_in',
} as const;
export type ConflictReasonValue = (typeof ConflictReason)[keyof typeof ConflictReason];
