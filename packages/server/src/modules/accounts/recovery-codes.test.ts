import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@till/test-support/app';
import { dialects } from '@till/test-support/db';
import { startSmtp, type TestSmtp } from '@till/test-support/smtp';
import { confirmedUser, GOOD_PASSWORD, stepUp } from '@till/test-support/users';

// The start of a 30-second step, so that codes computed here match the server's clock exactly.
const T0 = Math.floor(Date.UTC(2026, 10, 27, 11, 0, 0) / 30_000) * 30_000;
const STEP = 30_000;
const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const STEP_UP_REQUIRED = { code: 914, within: 300 };
const RENEW = '/api/auth/totp/recoveryCodes';

describe.each(dialects)('new recovery codes on %s', (dialect) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let now = T0;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ dialect, now: () => now, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** A confirmed user with TOTP on at `now`, whose session has just proven both factors. */
  async function withTotp(lang?: string) {
    const u = await confirmedUser(t, lang ? { lang } : {});
    const { secret } = (await t.call('/api/auth/totp/setup', { token: u.token })).data as { secret: string };
    const on = await t.call('/api/auth/totp/enable', {
      token: u.token,
      code: codeAt(secret, now),
      currentPassword: GOOD_PASSWORD,
    });
    expect(on.code).toBe(900);
    return { ...u, secret, recoveryCodes: (on.data as { recoveryCodes: string[] }).recoveryCodes };
  }

  /** Signs in with the password and a recovery code: the login's answer code. */
  async function signInWith(email: string, recoveryCode: string): Promise<number> {
    const first = await t.call('/api/login', { email, password: GOOD_PASSWORD });
    expect(first.code).toBe(913);
    return (await t.call('/api/login/secondFactor', { challenge: first.challenge, recoveryCode })).code as number;
  }

  const codesOf = (res: Record<string, unknown>) => (res.data as { recoveryCodes: string[] }).recoveryCodes;
  const codesLeft = async (token: string) =>
    ((await t.call('/api/auth/secondFactor/status', { token })).data as { totp: { recoveryCodesLeft: number } }).totp
      .recoveryCodesLeft;

  it('replaces the codes: the new ones work once, the old ones no longer', async () => {
    now = T0;
    const u = await withTotp();
    // One of the first set is used, so that both used and unused old codes are seen to go.
    expect(await signInWith(u.email, u.recoveryCodes[0]!)).toBe(900);
    expect(await codesLeft(u.token)).toBe(9);

    const res = await t.call(RENEW, { token: u.token });
    expect(res.code).toBe(900);
    const fresh = codesOf(res);
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    for (const c of fresh) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(fresh.some((c) => u.recoveryCodes.includes(c))).toBe(false);
    expect(await codesLeft(u.token)).toBe(10);

    expect(await signInWith(u.email, u.recoveryCodes[1]!)).toBe(902);
    expect(await signInWith(u.email, fresh[0]!)).toBe(900);
    expect(await signInWith(u.email, fresh[0]!)).toBe(902);
    expect(await codesLeft(u.token)).toBe(9);

    // Stored hashed: no table holds a code as it was shown.
    const stored = await t.ctx.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', u.userId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(fresh).not.toContain(row.code_hash);
      expect(fresh.map((c) => c.replace(/-/g, ''))).not.toContain(row.code_hash);
    }
  });

  it('needs a step-up on this session within five minutes', async () => {
    now = T0;
    const u = await withTotp();
    const before = await codesLeft(u.token);
    now += 301_000;
    expect(await t.call(RENEW, { token: u.token })).toEqual(STEP_UP_REQUIRED);
    // Another session of the same user has proven nothing.
    const first = await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD });
    const other = await t.call('/api/login/secondFactor', { challenge: first.challenge, code: codeAt(u.secret, now) });
    expect(other.code).toBe(900);
    expect(await t.call(RENEW, { token: other.token })).toEqual(STEP_UP_REQUIRED);
    // Refused calls changed nothing: the first set still works.
    expect(await codesLeft(u.token)).toBe(before);
    expect(await signInWith(u.email, u.recoveryCodes[0]!)).toBe(900);

    now += STEP;
    await stepUp(t, u.token, { code: codeAt(u.secret, now) });
    const res = await t.call(RENEW, { token: u.token });
    expect(res.code).toBe(900);
    expect(await signInWith(u.email, u.recoveryCodes[1]!)).toBe(902);
    expect(await signInWith(u.email, codesOf(res)[0]!)).toBe(900);
  });

  it('counts the step-up it needs against the login failure budgets', async () => {
    now = T0;
    const u = await withTotp();
    now += 301_000;
    const wrong = { token: u.token, password: 'not my password', code: codeAt(u.secret, now) };
    for (let i = 0; i < 10; i += 1) expect(await t.call('/api/auth/stepUp', wrong)).toEqual({ code: 902 });
    // The budget per account and address is spent: the right password and code are refused too,
    // the renewal still asks for a proof, and so does the login itself.
    const right = { token: u.token, password: GOOD_PASSWORD, code: codeAt(u.secret, now) };
    expect((await t.call('/api/auth/stepUp', right)).code).toBe(906);
    expect(await t.call(RENEW, { token: u.token })).toEqual(STEP_UP_REQUIRED);
    expect((await t.call('/api/login', { email: u.email, password: GOOD_PASSWORD })).code).toBe(906);
  });

  it('answers 912 not_enabled with the second factor off, and makes no codes', async () => {
    now = T0;
    const u = await confirmedUser(t);
    await stepUp(t, u.token);
    expect(await t.call(RENEW, { token: u.token })).toEqual({ code: 912, status: 'not_enabled' });
    const rows = await t.ctx.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', u.userId)
      .execute();
    expect(rows).toHaveLength(0);
    expect(await t.call(RENEW, { token: 'not-a-session' })).toEqual({ code: 901 });
  });

  it('logs the renewal and mails the owner in their language, with the way out', async () => {
    now = T0;
    const de = await withTotp('de');
    expect((await t.call(RENEW, { token: de.token })).code).toBe(900);
    const log = await t.call('/api/auth/securityLog', { token: de.token, page: 1, pageSize: 5 });
    const entries = (log.data as { entries: { kind: string; ip: string | null }[] }).entries;
    expect(entries[0]?.kind).toBe('recovery_codes_renewed');
    expect(entries[0]?.ip).toBeTruthy();
    expect(entries.filter((e) => e.kind === 'recovery_codes_renewed')).toHaveLength(1);
    const forgot = `${t.ctx.config.publicUrl}/forgot`;
    // The notice of the factor turned on comes too, under the same subject, sent after its own
    // commit: the two may arrive in either order.
    const notices = (subject: RegExp, email: string) =>
      Promise.all([smtp.next(email, subject), smtp.next(email, subject)]);
    const [first, second] = await notices(/Eine Änderung an deinem Till-Konto/, de.email);
    const mail = first.text.includes('eingeschaltet') ? second : first;
    expect((mail === first ? second : first).text).toContain('eingeschaltet');
    expect(mail.text).toContain('für dein Till-Konto wurden neue Wiederherstellungscodes erstellt');
    expect(mail.text).toContain('deine bisherigen gelten nicht mehr');
    expect(mail.text).toContain(`Das war ich nicht: Passwort zurücksetzen: ${forgot}`);

    const en = await withTotp('en');
    expect((await t.call(RENEW, { token: en.token })).code).toBe(900);
    const [one, two] = await notices(/A change to your Till account/, en.email);
    const english = one.text.includes('was turned on') ? two : one;
    expect((english === one ? two : one).text).toContain('was turned on');
    expect(english.text).toContain('new recovery codes were made for your Till account');
    expect(english.text).toContain('the ones you had before no longer work');
    expect(english.text).toContain(`This was not me: reset my password: ${forgot}`);
  });

  it('leaves exactly one set when two renewals race: the codes of one answer work, the other’s do not', async () => {
    now = T0;
    const u = await withTotp();
    for (let round = 0; round < 4; round += 1) {
      const answers = await Promise.all([t.call(RENEW, { token: u.token }), t.call(RENEW, { token: u.token })]);
      expect(answers.map((a) => a.code)).toEqual([900, 900]);
      const [a, b] = answers.map(codesOf) as [string[], string[]];
      expect(await codesLeft(u.token)).toBe(10);
      const works = [await signInWith(u.email, a[0]!), await signInWith(u.email, b[0]!)];
      expect([...works].sort()).toEqual([900, 902]);
      // The winner's other codes are the set too; none of the loser's.
      const winner = works[0] === 900 ? a : b;
      const loser = winner === a ? b : a;
      expect(await signInWith(u.email, winner[5]!)).toBe(900);
      expect(await signInWith(u.email, loser[5]!)).toBe(902);
    }
  });
});
