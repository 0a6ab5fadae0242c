import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../mail/mailer.js';
import { startTestApp } from '@till/test-support/app';
import { registerUser, uniqueEmail } from '@till/test-support/users';

/** A mailer whose sends, once held, wait until released: a mail server as slow as the test likes. */
function gatedMailer() {
  const sent: string[] = [];
  const events: string[] = [];
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { held: false };
  const mailer: Mailer = {
    async send(message) {
      events.push('send');
      if (state.held) await gate;
      sent.push(message.to);
    },
    close() {
      events.push('close');
    },
  };
  return { mailer, sent, events, hold: () => (state.held = true), open: () => open() };
}

describe('genResetLink', () => {
  it('answers before the mail is sent, so a known address answers like an unknown one', async () => {
    const gated = gatedMailer();
    const t = await startTestApp({ mailer: gated.mailer });
    let closed = false;
    try {
      const u = await registerUser(t);
      gated.hold();
      const known = await t.call('/api/genResetLink', { email: u.email });
      const unknown = await t.call('/api/genResetLink', { email: uniqueEmail() });
      expect(known).toEqual({ code: 900 });
      expect(unknown).toEqual({ code: 900 });
      // Both answered while the mail to the known address is still held at the mail server.
      expect(gated.sent.filter((to) => to === u.email)).toHaveLength(1); // the confirmation mail only
      gated.open();
      const closing = t.close();
      closed = true;
      await closing;
      // Closing waited for the mail on its way, and closed the mailer only after it.
      expect(gated.sent.filter((to) => to === u.email)).toHaveLength(2);
      expect(gated.events.at(-1)).toBe('close');
    } finally {
      gated.open();
      if (!closed) await t.close();
    }
  });
});
