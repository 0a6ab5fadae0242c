import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '@till/test-support/app';
import { redactUrl } from './redact.js';

describe('log redaction', () => {
  it.each([
    ['/reset/abcdefghijklmnop', '/reset/[redacted]'],
    ['/confirm/abcdefghijklmnop?x=1', '/confirm/[redacted]?x=1'],
    ['/api/resetPassword/tok123456789', '/api/resetPassword/[redacted]'],
    ['/api/confirmUser/tok123456789/', '/api/confirmUser/[redacted]/'],
    ['/api/files/d/123?expires=1700000000&sig=abcdef', '/api/files/d/123?expires=1700000000&sig=[redacted]'],
    ['/api/pay/default/ord1?sig=abc', '/api/pay/default/ord1?sig=[redacted]'],
    [
      '/api/payments/pingback/paymentwall?uid=1&SIG=abc&ref=r',
      '/api/payments/pingback/paymentwall?uid=1&SIG=[redacted]&ref=r',
    ],
    ['/x?%73ig=abc', '/x?%73ig=[redacted]'],
    ['/orders/ord1?page=2', '/orders/ord1?page=2'],
    ['/reset', '/reset'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it('keeps every secret-carrying URL out of the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await startTestApp({ logger: { level: 'info', stream }, env: { LOG_LEVEL: 'info' } });
    try {
      const secrets = ['resettoken0123456789', 'confirmtoken0123456789', 'signature0123456789'];
      await t.app.inject({ method: 'GET', url: `/reset/${secrets[0]}` });
      await t.app.inject({ method: 'GET', url: `/confirm/${secrets[1]}` });
      await t.app.inject({
        method: 'GET',
        url: `/api/files/d/00000000-0000-4000-8000-000000000000?expires=1&sig=${secrets[2]}`,
      });
      await t.app.inject({ method: 'GET', url: `/api/pay/default/x?sig=${secrets[2]}` });
      await t.app.inject({ method: 'POST', url: `/api/resetPassword/${secrets[0]}`, payload: {} });
      const log = lines.join('');
      expect(log).toContain('[redacted]');
      for (const secret of secrets) expect(log).not.toContain(secret);
    } finally {
      await t.close();
    }
  });
});
