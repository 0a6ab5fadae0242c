import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailedToken, PASSWORD, screenshotIfFailed, type Env } from '../support/env.js';
import { fill, waitForText } from '../support/flows.js';
import { NativeSide } from './native-side.js';
import { openPhone, startPhoneEnv, type Phone } from './support.js';

// The server's links (in mails, and the system browser's return from a payment) open the phone
// app through Android's app links: the App plugin's appUrlOpen, which the app routes to its page.

describe('links into the phone app', () => {
  let env: Env;
  let phone: Phone;
  const user = 'lina@example.test';

  beforeAll(async () => {
    env = await startPhoneEnv('nobody@example.test');
    expect(
      (await env.app.call('/api/register', { email: user, password: PASSWORD, name: 'Lina', lang: 'en' })).code,
    ).toBe(900);
  });
  afterEach(async (context) => {
    await screenshotIfFailed(context, { phone: phone?.page });
    await phone?.close();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('opens the confirmation link of a mail on the confirmation page, even when it starts the app', async () => {
    const token = await mailedToken(env, user, /Confirm your e-mail/, 'confirm');
    const native = new NativeSide();
    // The link starts the app: Android keeps the event until the app listens.
    await native.openUrl(`${env.url}/confirm/${token}`);
    phone = await openPhone(env, native);
    await phone.open('/');
    await waitForText(phone.page, 'Your e-mail address is confirmed. Thank you!');
    expect(new URL(phone.page.url()).pathname).toBe(`/confirm/${token}`);
  });

  it('opens a reset link while the app runs, and ignores links of other hosts and other pages', async () => {
    phone = await openPhone(env);
    await phone.open('/');
    await phone.page.getByRole('button', { name: 'Add to cart: Pro unlock' }).waitFor();
    await expect.poll(() => phone.native.listens('App', 'appUrlOpen')).toBe(true);

    await phone.native.openUrl(`https://elsewhere.example/reset/abc`);
    await phone.native.openUrl(`${env.url}/admin`);
    // The app's router moves at once when a link is taken: still on the catalog.
    expect(new URL(phone.page.url()).pathname).toBe('/');
    await phone.page.goto('https://localhost/forgot');
    await fill(phone.page, 'E-mail', user);
    await phone.page.getByRole('button', { name: 'Send the link' }).click();
    await waitForText(phone.page, /a link is on its way/);
    expect(new URL(phone.page.url()).pathname).toBe('/forgot');

    const token = await mailedToken(env, user, /Reset your Till password/, 'reset');
    await phone.native.openUrl(`${env.url}/reset/${token}`);
    await phone.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(new URL(phone.page.url()).pathname).toBe(`/reset/${token}`);
  });
});
