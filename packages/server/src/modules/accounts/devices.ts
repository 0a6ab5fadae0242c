import { isIP } from 'node:net';
import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Executor } from '../../db/rows.js';
import type { Database } from '../../db/schema.js';
import { hashToken } from '../../security/tokens.js';

/** The browser and system a user agent names, without versions: what a person recognises. */
export function describeDevice(userAgent: string): { browser: string | null; os: string | null } {
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name ?? null, os: parsed.os.name ?? null };
}

/**
 * The network a client address belongs to: the /24 of an IPv4 address, the /48 of an IPv6 one. A
 * home or office keeps its prefix while a provider hands out new addresses within it.
 */
export function networkOf(ip: string): string {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) === 4) return v4.split('.').slice(0, 3).join('.');
  if (isIP(ip) === 6) {
    const [head = '', tail = ''] = ip.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const full = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
    return full.slice(0, 3).join(':');
  }
  return ip;
}

/**
 * What makes a device "seen before": the browser family and system from the user agent, and the
 * client's network. The protocol carries the session in the payload, not in cookies, and the same
 * SDK runs in the native shell, so a device cookie would not reach every client; this needs nothing
 * stored on the device. Only a hash is kept, so the table holds no readable address.
 */
export function deviceKey(userId: string, ip: string, userAgent: string | null): string {
  const { browser, os } = userAgent ? describeDevice(userAgent) : { browser: null, os: null };
  return hashToken(`${userId}|${browser ?? '?'}|${os ?? '?'}|${networkOf(ip)}`);
}

/** A device of a sign-in: the user, its {@link deviceKey}, and when. */
interface Device {
  userId: string;
  key: string;
  now: number;
}

// Every sign-in runs these: prepared, as the sign-in's other statements are.
const countDevices = prepared<Device, { n: number }>((db, p) =>
  db
    .selectFrom('known_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', p('userId')),
);
const insertDevice = prepared<Device, { device_hash: string }>((db, p) =>
  db
    .insertInto('known_devices')
    .values({ user_id: p('userId'), device_hash: p('key'), first_seen_at: p('now'), last_seen_at: p('now') })
    .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doNothing())
    .returning('device_hash'),
);
const touchDevice = prepared<Device, never>((db, p) =>
  db
    .updateTable('known_devices')
    .set({ last_seen_at: p('now') })
    .where('user_id', '=', p('userId'))
    .where('device_hash', '=', p('key')),
);

/**
 * Records a sign-in's device; answers whether it is new for a user who already had known devices
 * (the very first one, at registration or the first sign-in after it, is no news). One conditional
 * insert decides, so two sign-ins racing from one new device send one notice.
 */
export async function rememberDevice(
  db: Executor,
  userId: string,
  ip: string,
  userAgent: string | null,
  now: number,
): Promise<boolean> {
  const device = { userId, key: deviceKey(userId, ip, userAgent), now };
  const [known] = (await countDevices(db, device)).rows;
  const [inserted] = (await insertDevice(db, device)).rows;
  if (!inserted) await touchDevice(db, device);
  return Number(known?.n) > 0 && inserted !== undefined;
}

/** Forgets devices not used since `before` (with the security log's retention): a sign-in from one is news again. */
export async function forgetDevices(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db.deleteFrom('known_devices').where('last_seen_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}
