import type { Generated } from 'kysely';

/** Epoch milliseconds; PostgreSQL `bigint` is parsed back to a number. */
type Millis = number;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  lang: string;
  level: number;
  email_confirmed: number;
  password_hash: string;
  pending_email: string | null;
  avatar_file_id: string | null;
  avatar_key: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** Set when a reversal could not take back everything: an administrator should look. */
  flagged_at: Millis | null;
  flag_reason: string | null;
  /** Set when the account was deleted: the row stays as an anonymised tombstone for its orders and ledger. */
  deleted_at: Millis | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Millis;
  expires_at: Millis;
  last_seen_at: Millis | null;
  user_agent: string | null;
  ip: string | null;
  /** When the session last proved the password (and second factor) again; null when never. */
  step_up_at: Millis | null;
}

export interface LinkTokensTable {
  token_hash: string;
  user_id: string;
  kind: 'confirm' | 'reset' | 'email_change';
  new_email: string | null;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

export interface MigrationsTable {
  name: string;
  applied_at: Millis;
  seq: Generated<number>;
}

/** A product; `store_ids` is JSON text of `{appstore?, googleplay?}`. */
export interface ProductsTable {
  id: string;
  alias: string;
  title: string;
  description: string;
  type: number;
  price_amount: number | null;
  price_currency: string | null;
  credit_price: number | null;
  grant_credits: number | null;
  grant_period: string | null;
  image_url: string | null;
  store_ids: string;
  active: number;
  sort: Generated<number>;
  created_at: Millis;
  updated_at: Millis;
}

/** A coupon; codes are stored upper-case. `grant_products`, `applies_to` are JSON arrays or null. */
export interface CouponsTable {
  code: string;
  kind: 'discount' | 'grant';
  percent_off: number | null;
  amount_off: number | null;
  amount_currency: string | null;
  grant_credits: number | null;
  grant_products: string | null;
  applies_to: string | null;
  min_total: number | null;
  min_total_currency: string | null;
  starts_at: Millis | null;
  ends_at: Millis | null;
  usage_limit: number | null;
  per_user_limit: number | null;
  used: Generated<number>;
  active: number;
  batch: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface CouponUsesTable {
  coupon_code: string;
  user_id: string;
  uses: number;
  updated_at: Millis;
}

export interface OrdersTable {
  id: string;
  user_id: string;
  status: 'pending' | 'paid' | 'failed' | 'cancelled' | 'refunded';
  currency: string;
  subtotal: number;
  discount: number;
  total: number;
  credits_spent: number;
  coupon_code: string | null;
  provider: string;
  data: string | null;
  note: string | null;
  created_at: Millis;
  updated_at: Millis;
  paid_at: Millis | null;
  closed_at: Millis | null;
  /** A refund asked of the provider and not yet confirmed by it. */
  refund_requested_at: Millis | null;
  /** Credits a reversal could not take back because the buyer had spent them. */
  shortfall_credits: number;
  /** When the provider ended the subscription this order started (no more renewals). */
  subscription_ended_at: Millis | null;
  /** When the buyer asked the subscription to end at its period's end (no renewal after it). */
  period_end_requested_at: Millis | null;
  /** Money given back so far by administrators' refunds (never above `total`). */
  refunded_amount: Generated<number>;
  /** 1 when a store's test purchase paid the order (no money taken). */
  sandbox: Generated<number>;
}

/** A product's title and description in a language other than the default. */
export interface ProductTextsTable {
  product_id: string;
  lang: string;
  title: string;
  description: string;
  updated_at: Millis;
}

/** One administrator's refund of an order: how much, and whether the order kept what it granted. */
export interface OrderRefundsTable {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  keeps_grants: number;
  reason: string | null;
  admin_id: string | null;
  created_at: Millis;
}

export interface OrderItemsTable {
  order_id: string;
  line: number;
  product_id: string;
  alias: string;
  title: string;
  type: number;
  price_amount: number | null;
  price_currency: string | null;
  credit_price: number | null;
  quantity: number;
  grant_credits: number | null;
  grant_period: string | null;
}

/** A user's balance (the store's): one row per user, opened with the account; never below zero. */
export interface CreditBalancesTable {
  user_id: string;
  credits: number;
}

export interface CreditLedgerTable {
  id: string;
  user_id: string;
  amount: number;
  reason: string;
  reference: string | null;
  balance_after: number;
  created_at: Millis;
}

export interface EntitlementsTable {
  id: string;
  user_id: string;
  product_id: string;
  kind: 'ownership' | 'subscription';
  source: string;
  order_id: string | null;
  starts_at: Millis;
  expires_at: Millis | null;
  revoked_at: Millis | null;
  created_at: Millis;
}

/** A provider's own reference (session, payment, subscription) and the order it belongs to. */
export interface PaymentRefsTable {
  provider: string;
  ref: string;
  order_id: string;
  kind: string;
  created_at: Millis;
}

export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  order_id: string;
  outcome: string;
  created_at: Millis;
}

export interface StoreMetaTable {
  key: string;
  value: string;
  updated_at: Millis;
}

/** An uploaded file; its bytes are in object storage under `storage_key`. */
export interface FilesTable {
  id: string;
  user_id: string;
  name: string;
  size: number;
  mime: string;
  storage_key: string;
  public: number;
  created_at: Millis;
}

/** Bytes a user's files take, for the upload quota. */
export interface FileUsageTable {
  user_id: string;
  used_bytes: number;
}

/** Who runs a scheduled job now, and until when. */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: Millis;
  last_run_at: Millis | null;
}

/** An object being written to storage by a server instance, until its file row is committed. */
export interface StorageWritesTable {
  key: string;
  /** The instance writing it (`Liveness.id`). */
  holder: string;
  started_at: Millis;
}

/** A passkey: a WebAuthn credential of a user; ids and the public key are base64url. */
export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  /** JSON array of the transports the authenticator named (`internal`, `hybrid`, `usb`, ...). */
  transports: string;
  name: string;
  device_type: string;
  backed_up: number;
  created_at: Millis;
  last_used_at: Millis | null;
}

/** A WebAuthn challenge handed out and not yet used: only its hash is kept. */
export interface WebauthnChallengesTable {
  challenge_hash: string;
  kind: 'register' | 'signin' | 'confirm';
  user_id: string | null;
  created_at: Millis;
  expires_at: Millis;
}

/** A stored object whose row is gone (a deleted account's files) and whose removal is still due. */
export interface ObjectRemovalsTable {
  key: string;
  reason: string;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Millis;
}

/** A user's TOTP secret (encrypted); `enabled_at` null while set up but not confirmed. */
export interface UserTotpTable {
  user_id: string;
  secret_enc: string;
  enabled_at: Millis | null;
  /** The last time step a code was accepted for. */
  last_step: number | null;
  created_at: Millis;
}

/** A single-use recovery code, by its SHA-256. */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: Millis;
  used_at: Millis | null;
}

/** The step between a right password and a second factor; the token is stored hashed. */
export interface LoginChallengesTable {
  token_hash: string;
  user_id: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
  attempts: Generated<number>;
}

/** A device (browser family, system, network) a user has signed in from, by its hash. */
export interface KnownDevicesTable {
  user_id: string;
  device_hash: string;
  first_seen_at: Millis;
  last_seen_at: Millis;
}

/** A token a device got at a sign-in, by its hash: that device's own failure budget for the account. */
export interface DeviceTokensTable {
  token_hash: string;
  user_id: string;
  created_at: Millis;
  last_used_at: Millis;
}

/** A provider linked to an account, by the provider's stable subject id. */
export interface SocialIdentitiesTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: Millis;
  last_used_at: Millis | null;
  /** When Apple said its relay address stopped forwarding (email-disabled); null while it delivers. */
  email_disabled_at?: Millis | null;
}

/** A single-use value of a social sign-in in progress, kept hashed; `data` is JSON text. */
export interface SocialFlowsTable {
  value_hash: string;
  kind: string;
  provider: string;
  user_id: string | null;
  data: string;
  created_at: Millis;
  expires_at: Millis;
}

/** One entry of a user's security log; `detail` is JSON text. */
export interface SecurityLogTable {
  id: string;
  user_id: string;
  kind: string;
  at: Millis;
  ip: string | null;
  user_agent: string | null;
  actor_id: string | null;
  detail: string | null;
}

/** A mail owed to a user, queued with its cause and sent after the commit (`mail/outbox.ts`). */
export interface MailOutboxTable {
  id: string;
  /** The cause (`receipt:<order>`): one cause, one mail. */
  key: string;
  kind: string;
  user_id: string;
  order_id: string | null;
  /** JSON text of what the mail says beyond the order itself. */
  data: string;
  created_at: Millis;
  due_at: Millis;
  claimed_until: Millis | null;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Millis | null;
}

/** Every table; modules add theirs here as they grow. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  link_tokens: LinkTokensTable;
  products: ProductsTable;
  coupons: CouponsTable;
  coupon_uses: CouponUsesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  credit_balances: CreditBalancesTable;
  credit_ledger: CreditLedgerTable;
  entitlements: EntitlementsTable;
  payment_events: PaymentEventsTable;
  payment_refs: PaymentRefsTable;
  job_leases: JobLeasesTable;
  store_meta: StoreMetaTable;
  files: FilesTable;
  file_usage: FileUsageTable;
  product_texts: ProductTextsTable;
  order_refunds: OrderRefundsTable;
  storage_writes: StorageWritesTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  known_devices: KnownDevicesTable;
  device_tokens: DeviceTokensTable;
  social_identities: SocialIdentitiesTable;
  social_flows: SocialFlowsTable;
  security_log: SecurityLogTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  object_removals: ObjectRemovalsTable;
  mail_outbox: MailOutboxTable;
}
