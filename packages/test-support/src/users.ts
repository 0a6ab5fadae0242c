import type { TestApp } from './app.js';

let counter = 0;

/** A unique address for this test run. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

export const GOOD_PASSWORD = 'a long, uncommon passphrase';

/** Registers a user through the API and answers their token and id. */
export async function registerUser(
  t: TestApp,
  fields: { email?: string; name?: string; password?: string; lang?: string } = {},
): Promise<{ token: string; userId: string; email: string }> {
  const email = fields.email ?? uniqueEmail();
  const res = await t.call('/api/register', {
    email,
    password: fields.password ?? GOOD_PASSWORD,
    name: fields.name ?? 'Test User',
    lang: fields.lang ?? 'en',
  });
  if (res.code !== 900) throw new Error(`register failed: ${JSON.stringify(res)}`);
  return { token: res.token as string, userId: (res.user as { id: string }).id, email: email.toLowerCase() };
}

/** Registers a user and marks their e-mail confirmed (level 2), straight in the database. */
export async function confirmedUser(t: TestApp, fields: Parameters<typeof registerUser>[1] = {}) {
  const u = await registerUser(t, fields);
  await t.ctx.db.kysely.updateTable('users').set({ email_confirmed: 1, level: 2 }).where('id', '=', u.userId).execute();
  return u;
}

/**
 * Proves the password again on a session (`api/auth/stepUp`), as credential changes and
 * administrators' sensitive actions need within the last minutes.
 */
export async function stepUp(t: TestApp, token: string, proof: { password?: string; code?: string } = {}) {
  const res = await t.call('/api/auth/stepUp', { token, password: proof.password ?? GOOD_PASSWORD, code: proof.code });
  if (res.code !== 900) throw new Error(`step-up failed: ${JSON.stringify(res)}`);
}

/** Registers a user whose session has just proved its password (see {@link stepUp}). */
export async function provenUser(t: TestApp, fields: Parameters<typeof registerUser>[1] = {}) {
  const u = await registerUser(t, fields);
  await stepUp(t, u.token);
  return u;
}

/** Registers an administrator (level 9), whose session has just proved its password (see {@link stepUp}). */
export async function adminUser(t: TestApp) {
  const u = await registerUser(t);
  await t.ctx.db.kysely.updateTable('users').set({ email_confirmed: 1, level: 9 }).where('id', '=', u.userId).execute();
  await stepUp(t, u.token);
  return u;
}
