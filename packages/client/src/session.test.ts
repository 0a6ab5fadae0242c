import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Session, type SessionEvent } from './session.js';
import { memoryStorage, preferencesStorage } from './session-storage.js';
import { fakeUser } from './test-support/fake-http.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

describe('Session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('is valid while now (seconds) < issue time + expire, then reports level 0', () => {
    const session = new Session();
    session.start({ token: 't1', expire: 10, user: fakeUser({ level: 2 }) as never });
    expect(session.isValid()).toBe(true);
    expect(session.level).toBe(2);
    expect(session.snapshot()).toMatchObject({ token: 't1', issuedAt: T0 / 1000, expire: 10, level: 2 });
    expect(session.expiresAt).toBe(T0 / 1000 + 10);

    vi.setSystemTime(T0 + 9_999);
    expect(session.token).toBe('t1');
    vi.setSystemTime(T0 + 10_000);
    expect(session.isValid()).toBe(false);
    expect(session.token).toBeNull();
    expect(session.level).toBe(0);
    expect(session.user).toBeNull();
  });

  it('tells its listeners when the token expires, without anyone asking', () => {
    const session = new Session();
    const events: SessionEvent[] = [];
    session.subscribe((e) => events.push(e));
    session.start({ token: 't1', expire: 60, user: fakeUser() as never });
    vi.advanceTimersByTime(59_000);
    expect(events.map((e) => e.type)).toEqual(['start']);
    vi.advanceTimersByTime(1_000);
    expect(events.at(-1)).toEqual({ type: 'end', reason: 'expired', state: null });
  });

  it('re-arms its timer in steps for sessions longer than setTimeout allows', () => {
    const session = new Session();
    const ends: SessionEvent[] = [];
    session.subscribe((e) => e.type === 'end' && ends.push(e));
    const thirtyDays = 30 * 86_400;
    session.start({ token: 't', expire: thirtyDays });
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(ends).toHaveLength(0);
    expect(session.isValid()).toBe(true);
    vi.advanceTimersByTime(thirtyDays * 1000 - (2 ** 31 - 1));
    expect(ends).toEqual([{ type: 'end', reason: 'expired', state: null }]);
  });

  it('clears to level 0 and tells every listener, even when one throws', () => {
    const session = new Session();
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    session.subscribe(() => {
      throw new Error('broken listener');
    });
    session.subscribe((e) => seen.push(e.type === 'end' ? `end:${e.reason}` : e.type));
    session.start({ token: 't', expire: 100 });
    session.clear('invalid');
    expect(seen).toEqual(['start', 'end:invalid']);
    expect(session.level).toBe(0);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('takes the level from the user it is given', () => {
    const session = new Session();
    session.start({ token: 't', expire: 100, user: fakeUser({ level: 1 }) as never });
    session.setUser(fakeUser({ level: 9, name: 'Admin' }) as never);
    expect(session.level).toBe(9);
    expect(session.user?.name).toBe('Admin');
  });

  it('keeps itself in a synchronous storage and restores at once', () => {
    const storage = memoryStorage();
    const first = new Session({ storage });
    first.start({ token: 'kept', expire: 3600, user: fakeUser({ level: 2 }) as never });
    expect(JSON.parse(storage.items.get('till.session') ?? '{}')).toMatchObject({ token: 'kept', expire: 3600 });

    vi.setSystemTime(T0 + 60_000);
    const second = new Session({ storage });
    // No await: web storage answers synchronously, so the first render already knows the user.
    expect(second.token).toBe('kept');
    expect(second.level).toBe(2);
    expect(second.snapshot()?.issuedAt).toBe(T0 / 1000);

    second.clear();
    expect(storage.items.has('till.session')).toBe(false);
  });

  it('restores from an asynchronous storage once ready, and tells listeners', async () => {
    const values = new Map<string, string>();
    const prefs = preferencesStorage({
      get: async ({ key }) => ({ value: values.get(key) ?? null }),
      set: async ({ key, value }) => void values.set(key, value),
      remove: async ({ key }) => void values.delete(key),
    });
    const first = new Session({ storage: prefs, storageKey: 'k' });
    first.start({ token: 'device', expire: 3600 });
    await vi.waitFor(() => expect(values.get('k')).toContain('device'), { timeout: 20_000 });

    const second = new Session({ storage: prefs, storageKey: 'k' });
    const events: string[] = [];
    second.subscribe((e) => events.push(e.type));
    expect(second.token).toBeNull();
    await second.ready;
    expect(second.token).toBe('device');
    expect(events).toEqual(['restore']);
  });

  it('drops an expired or unreadable stored session', async () => {
    const storage = memoryStorage();
    storage.items.set(
      'till.session',
      JSON.stringify({ token: 'old', issuedAt: T0 / 1000 - 100, expire: 50, level: 1 }),
    );
    const session = new Session({ storage });
    await session.ready;
    expect(session.token).toBeNull();
    await vi.waitFor(() => expect(storage.items.has('till.session')).toBe(false), { timeout: 20_000 });

    storage.items.set('till.session', '{not json');
    const again = new Session({ storage });
    await again.ready;
    expect(again.isValid()).toBe(false);
  });

  it('lets a login made while an asynchronous storage is read win over the stored session', async () => {
    let release!: (v: { value: string | null }) => void;
    const storage = preferencesStorage({
      get: () => new Promise((r) => (release = r)),
      set: async () => {},
      remove: async () => {},
    });
    const session = new Session({ storage });
    session.start({ token: 'fresh', expire: 100 });
    release({ value: JSON.stringify({ token: 'stale', issuedAt: T0 / 1000, expire: 100, level: 1 }) });
    await session.ready;
    expect(session.token).toBe('fresh');
  });
});
