import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallQueue, replaceTokenPlaceholders } from './call-queue.js';
import { DroppedError } from './errors/dropped-error.js';
import { Session } from './session.js';

describe('replaceTokenPlaceholders', () => {
  it('replaces [TOKEN] in strings at any depth and leaves other values alone', () => {
    const blob = new Blob(['x']);
    const out = replaceTokenPlaceholders(
      { token: '[TOKEN]', n: 3, nested: { deep: ['a', '[TOKEN]', { t: 'Bearer [TOKEN]' }] }, blob, none: null },
      'abc',
    );
    expect(out).toEqual({ token: 'abc', n: 3, nested: { deep: ['a', 'abc', { t: 'Bearer abc' }] }, blob, none: null });
    expect(out.blob).toBe(blob);
  });
});

describe('CallQueue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('replays waiting calls in call order with the new token after a login', async () => {
    const session = new Session();
    const queue = new CallQueue({ session });
    const sent: string[] = [];
    const call = (name: string) =>
      queue.enqueue(async (token) => {
        sent.push(`${name}:${token}`);
        // The first call answers last: replay still waits for it before sending the next.
        await new Promise((r) => setTimeout(r, name === 'a' ? 50 : 1));
        return { code: 900 as const, name };
      });
    const a = call('a');
    const b = call('b');
    expect(queue.size).toBe(2);
    session.start({ token: 'new-token', expire: 3600 });
    await vi.advanceTimersByTimeAsync(100);
    expect(await a).toEqual({ code: 900, name: 'a' });
    expect(await b).toEqual({ code: 900, name: 'b' });
    expect(sent).toEqual(['a:new-token', 'b:new-token']);
    expect(queue.size).toBe(0);
  });

  it('drops a call beyond its size at once with 905 queue_full', async () => {
    const queue = new CallQueue({ maxSize: 1 });
    void queue.enqueue(async () => ({ code: 900 as const }));
    const dropped = await queue.enqueue(async () => ({ code: 900 as const }), { method: 'POST', url: 'api/x' });
    expect(dropped).toMatchObject({ code: 905, reason: 'queue_full' });
    expect(dropped.code === 905 && dropped.error).toBeInstanceOf(DroppedError);
    expect(dropped.code === 905 && dropped.error.request).toEqual({ method: 'POST', url: 'api/x' });
  });

  it('drops calls that waited longer than its age limit, oldest first, without a login', async () => {
    const queue = new CallQueue({ maxAgeMs: 1_000 });
    const run = vi.fn(async () => ({ code: 900 as const }));
    const first = queue.enqueue(run);
    await vi.advanceTimersByTimeAsync(600);
    const second = queue.enqueue(run);
    await vi.advanceTimersByTimeAsync(400);
    expect(await first).toMatchObject({ code: 905, reason: 'queue_expired' });
    expect(queue.size).toBe(1);
    await vi.advanceTimersByTimeAsync(600);
    expect(await second).toMatchObject({ code: 905, reason: 'queue_expired' });
    expect(queue.size).toBe(0);
    expect(run).not.toHaveBeenCalled();
  });

  it('drops everything on clear with 905 queue_cleared', async () => {
    const queue = new CallQueue();
    const a = queue.enqueue(async () => ({ code: 900 as const }));
    queue.clear();
    expect(await a).toMatchObject({ code: 905, reason: 'queue_cleared' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops replaying when the session ends on the way, keeping the rest for the next login', async () => {
    const session = new Session();
    const queue = new CallQueue({ session });
    const first = queue.enqueue(async () => {
      session.clear('invalid');
      return { code: 901 as const };
    });
    const second = queue.enqueue(async (token) => ({ code: 900 as const, token }));
    session.start({ token: 'one', expire: 3600 });
    expect(await first).toEqual({ code: 901 });
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.size).toBe(1);
    session.start({ token: 'two', expire: 3600 });
    expect(await second).toEqual({ code: 900, token: 'two' });
  });

  it('answers 905 for a call whose sender throws, and goes on with the next', async () => {
    const queue = new CallQueue();
    const bad = queue.enqueue(async () => {
      throw new Error('boom');
    });
    const good = queue.enqueue(async () => ({ code: 900 as const }));
    await queue.flush('t');
    expect(await bad).toMatchObject({ code: 905, reason: 'request' });
    expect(await good).toEqual({ code: 900 });
  });

  it('does not replay the same calls twice when two logins follow each other', async () => {
    const queue = new CallQueue();
    const run = vi.fn(async (token: string) => ({ code: 900 as const, token }));
    const a = queue.enqueue(run);
    await Promise.all([queue.flush('x'), queue.flush('y')]);
    expect(run).toHaveBeenCalledTimes(1);
    expect(await a).toEqual({ code: 900, token: 'x' });
  });
});
