import Fastify from 'fastify';
import { dataResponse, orderStatusData } from '@till/protocol';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fail } from '../errors.js';
import { AnswerCheck } from './answer-check.js';
import { CallRegistry } from './calls.js';

const order = {
  iden: 'o1',
  status: 'paid',
  items: [],
  subtotal: { amount: 100, currency: 'USD' },
  discount: { amount: 0, currency: 'USD' },
  total: { amount: 100, currency: 'USD' },
  creditsSpent: 0,
  couponCode: null,
  provider: 'default',
  createdAt: '2026-01-01T00:00:00.000Z',
  paidAt: '2026-01-01T00:00:01.000Z',
};

describe('answers held against their declared schemas', () => {
  const schema = dataResponse(orderStatusData);

  it('passes an answer its schema describes, and a protocol failure', () => {
    const check = new AnswerCheck();
    check.check('/x', schema, { code: 900, data: { status: 'paid', order } });
    check.check('/x', schema, { code: 904, parameter: 'iden' });
    expect(check.drift).toEqual([]);
  });

  it('finds a missing field, an undescribed field, a failure of no protocol shape and a missing schema', () => {
    const check = new AnswerCheck();
    check.check('/a', schema, { code: 900, data: { status: 'paid' } });
    check.check('/b', schema, { code: 900, data: { status: 'paid', order: { ...order, secret: 'x' } } });
    check.check('/c', schema, { code: 907, parameter: 'x' });
    check.check('/d', undefined, { code: 900 });
    expect(check.drift.map((d) => d.split(' ')[0])).toEqual(['/a', '/b', '/c', '/d']);
    expect(check.drift[1]).toContain('fields its schema does not describe');
  });

  it('sees what a registered call really sends', async () => {
    const app = Fastify();
    const check = new AnswerCheck();
    const calls = new CallRegistry(app, () => Promise.resolve(fail.invalidToken()), check);
    calls.define({
      path: '/api/drifting',
      summary: 'answers a field it does not declare',
      tag: 'test',
      request: z.object({}),
      response: z.object({ code: z.literal(900), data: z.object({ n: z.number() }) }),
      handler: () => Promise.resolve({ data: { n: 1, extra: true } }),
    });
    calls.define({
      path: '/api/fine',
      summary: 'answers what it declares',
      tag: 'test',
      request: z.object({}),
      response: z.object({ code: z.literal(900), data: z.object({ n: z.number() }) }),
      handler: () => Promise.resolve({ data: { n: 1 } }),
    });
    await app.ready();
    await app.inject({ method: 'POST', url: '/api/fine', payload: {} });
    expect(check.drift).toEqual([]);
    const res = await app.inject({ method: 'POST', url: '/api/drifting', payload: {} });
    expect(res.json()).toEqual({ code: 900, data: { n: 1, extra: true } });
    expect(check.drift).toHaveLength(1);
    expect(check.drift[0]).toContain('/api/drifting');
    await app.close();
  });
});
