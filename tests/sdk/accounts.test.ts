import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTill, HttpError, NetworkError, TimeoutError, type SessionEvent } from '@till/client';
import { patientTimeouts, startTestApp, type TestApp } from '@till/test-support/app';
import { GOOD_PASSWORD, uniqueEmail } from '@till/test-support/users';

// The SDK against the real server, started in-process on a loopback port.
describe('SDK account calls against the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(() => t.close());

  const newTill = () => createTill({ apiHost: t.url, storeHost: t.url, timeouts: patientTimeouts });
  async function registered(name = 'Ada') {
    const email = uniqueEmail('sdk');
    const till = newTill();
    const res = await till.api.register({ email, password: GOOD_PASSWORD, name, lang: 'en' });
    if (res.code !== 900) throw new Error(`register answered ${JSON.stringify(res)}`);
    return { till, email };
  }

  it('registers, logs out and logs in again, keeping the session and level', async () => {
    const { till, email } = await registered();
    expect(till.session.level).toBe(1);
    expect(till.session.user?.email).toBe(email);
    expect(await till.api.logout()).toEqual({ code: 900 });
    expect(till.session.level).toBe(0);

    const res = await till.api.login({ email, password: GOOD_PASSWORD });
    expect(res.code).toBe(900);
    expect(till.session.isValid()).toBe(true);
    const info = await till.api.getUserInfo();
    expect(info.code === 900 && info.user.email).toBe(email);
  });

  it('answers registration errors as 907 with the field and reason, and wrong passwords as 902', async () => {
    const till = newTill();
    const weak = await till.api.register({ email: uniqueEmail(), password: 'password', name: 'A', lang: 'en' });
    expect(weak).toMatchObject({ code: 907, parameter: 'password' });
    const { email } = await registered();
    expect(await newTill().api.login({ email, password: 'not the password' })).toEqual({ code: 902 });
  });

  it('replays calls made before login in order, with [TOKEN] replaced by the new token', async () => {
    const { email } = await registered('Before');
    const till = newTill();
    const first = till.api.updateInfo({ name: 'First' });
    const second = till.api.updateInfo({ name: 'Second' });
    const info = till.api.getUserInfo();
    // A service call whose own fields carry the placeholder.
    const list = till.serviceCall<{ total: number }>('api/files/list', { token: '[TOKEN]', page: 1 });
    expect(till.queue.size).toBe(4);

    expect((await till.api.login({ email, password: GOOD_PASSWORD })).code).toBe(900);
    const answers = await Promise.all([first, second, info, list]);
    expect(answers.map((a) => a.code)).toEqual([900, 900, 900, 900]);
    const user = answers[2];
    // Replayed in call order: the second rename is the one that stands.
    expect(user?.code === 900 && 'user' in user && user.user.name).toBe('Second');
    expect(till.session.user?.name).toBe('Second');
    expect(till.queue.size).toBe(0);
  });

  it('clears the session on the 901 that follows a revoked session, and tells its listeners', async () => {
    const { till: phone, email } = await registered();
    const laptop = newTill();
    await laptop.api.login({ email, password: GOOD_PASSWORD });
    const events: SessionEvent[] = [];
    phone.session.subscribe((e) => events.push(e));

    const revoked = await laptop.api.revokeSessions();
    expect(revoked.code === 900 && revoked.data.revoked).toBe(1);
    expect(await phone.api.getUserInfo()).toEqual({ code: 901 });
    expect(phone.session.isValid()).toBe(false);
    expect(phone.session.level).toBe(0);
    expect(events).toEqual([{ type: 'end', reason: 'invalid', state: null }]);
    // The other device keeps its session.
    expect((await laptop.api.getUserInfo()).code).toBe(900);
  });

  it("passes the server's 904 for an unknown service through, and turns a refused body (413) into 905", async () => {
    const { till } = await registered();
    expect(await till.serviceCall('api/no/such/service', {})).toEqual({ code: 904, parameter: 'servicePath' });
    // Over the server's 1 MiB body limit: a transport failure, answered with HTTP 413.
    const res = await till.serviceCall('api/files/list', { page: 1, padding: 'x'.repeat(1_100_000) });
    expect(res).toMatchObject({ code: 905, reason: 'status' });
    expect(res.code === 905 && res.error instanceof HttpError && res.error.status).toBe(413);
    expect(till.session.isValid()).toBe(true);
  });

  it('answers 905 when the call outlives its timeout', async () => {
    // The real server, behind a hold that lets the registration reach it only after the SDK gave up.
    const held = new Set<Socket>();
    const hold: Server = createServer((client) => {
      held.add(client);
      const upstream = connect(Number(new URL(t.url).port), '127.0.0.1');
      held.add(upstream);
      client.pause();
      setTimeout(() => {
        client.pipe(upstream).pipe(client);
        client.resume();
      }, 500);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hold.address() as { port: number };
      const till = createTill({ apiHost: `http://127.0.0.1:${port}`, timeouts: { apiMs: 50 } });
      const res = await till.api.register({ email: uniqueEmail(), password: GOOD_PASSWORD, name: 'Slow', lang: 'en' });
      expect(res).toMatchObject({ code: 905, reason: 'timeout' });
      expect(res.code === 905 && res.error).toBeInstanceOf(TimeoutError);
      expect(till.session.isValid()).toBe(false);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => hold.close(resolve));
    }
  });
});

describe('SDK when the server is unreachable', () => {
  it('answers 905 when the server is down', async () => {
    const t = await startTestApp({ listen: true });
    const url = t.url;
    await t.close();
    const till = createTill({ apiHost: url });
    const res = await till.api.login({ email: 'a@example.test', password: GOOD_PASSWORD });
    expect(res).toMatchObject({ code: 905, reason: 'network' });
    expect(res.code === 905 && res.error).toBeInstanceOf(NetworkError);
    expect(res.code === 905 && res.error.cause).toBeDefined();
  });

  it('answers 905 when a server accepts the connection and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const till = createTill({ storeHost: `http://127.0.0.1:${port}` });
      till.session.start({ token: 'tok', expire: 60 });
      const started = performance.now();
      // The store's own 5 000 ms timeout, as the specification sets it.
      const res = await till.store.getCoupon('WELCOME10');
      expect(res).toMatchObject({ code: 905, reason: 'timeout' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(4_900);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
