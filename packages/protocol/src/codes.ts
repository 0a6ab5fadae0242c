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
 * Machine words for 907 `reason`; the client maps them to translated messages.
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
