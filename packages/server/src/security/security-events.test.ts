import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { loggedSecurityEvents } from './security-events.js';

describe('security events as log lines', () => {
  it('writes one structured line per event, with what happened and nothing more', async () => {
    const lines: [Record<string, unknown>, string][] = [];
    const log = { info: (fields: Record<string, unknown>, message: string) => lines.push([fields, message]) };
    const events = loggedSecurityEvents(log as unknown as FastifyBaseLogger);
    await events.record({
      userId: 'u1',
      kind: 'passkey_added',
      ip: '203.0.113.9',
      userAgent: 'Browser/1',
      detail: { passkeyId: 'p1', name: 'Phone' },
    });
    await events.record({ userId: 'u2', kind: 'account_deleted', actorId: 'admin1' });
    expect(lines).toEqual([
      [
        {
          securityEvent: 'passkey_added',
          userId: 'u1',
          actorId: null,
          ip: '203.0.113.9',
          userAgent: 'Browser/1',
          detail: { passkeyId: 'p1', name: 'Phone' },
        },
        'security event',
      ],
      [
        { securityEvent: 'account_deleted', userId: 'u2', actorId: 'admin1', ip: null, userAgent: null, detail: {} },
        'security event',
      ],
    ]);
  });
});
