import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminOrder } from '@till/protocol';
import { formatDate } from '@/lib/format';
import { testAdminOrder, testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { OrdersAdmin } from './orders-admin';

const cardOrder = testAdminOrder({
  iden: 'o-card',
  payment: {
    refs: [
      { kind: 'session', ref: 'cs_test_a1' },
      { kind: 'payment', ref: 'pi_3Nb' },
    ],
    refundRequestedAt: null,
    shortfallCredits: 0,
    subscriptionEndedAt: null,
    refundedAmount: 0,
    sandbox: false,
  },
});

function server(orders: AdminOrder[], refund?: (iden: string) => AdminOrder) {
  const paths: string[] = [];
  const till = fakeTill((path, body) => {
    paths.push(path);
    if (path === 'api/admin/orders/list') return { code: 900, data: { orders, total: orders.length } };
    if (path === 'api/admin/orders/refund' && refund) return { code: 900, data: { order: refund(String(body.iden)) } };
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  return { till, paths };
}

describe('OrdersAdmin', () => {
  it("shows an order's provider references", async () => {
    const { till } = server([cardOrder]);
    renderWithApp(<OrdersAdmin />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Details of order #O-CARD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order #O-CARD' });
    const refs = within(dialog).getByRole('list', { name: 'Provider references' });
    expect(
      within(refs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['session cs_test_a1', 'payment pi_3Nb']);
    expect(within(dialog).getByText('Card (Stripe)')).toBeInTheDocument();
    // Nothing asked back, nothing short, no subscription: those lines are left out.
    expect(within(dialog).queryByText('Refund')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Not taken back')).not.toBeInTheDocument();
    expect(within(dialog).queryByText('Subscription ended')).not.toBeInTheDocument();
  });

  it('asks the server for the number or e-mail typed, and says when nothing matches', async () => {
    const bodies: Record<string, unknown>[] = [];
    const till = fakeTill((path, body) => {
      if (path !== 'api/admin/orders/list') return { code: 904, parameter: 'path' };
      bodies.push(body);
      const orders = body.query === '#O-CARD' ? [cardOrder] : body.query ? [] : [cardOrder, testAdminOrder()];
      return { code: 900, data: { orders, total: orders.length } };
    });
    signInFake(till, 9);
    renderWithApp(<OrdersAdmin />, { till });
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Orders' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    // Orders are named by the number their buyers see, never by their iden.
    expect(within(table).getByText('#O-CARD')).toBeInTheDocument();
    expect(within(table).queryByText('o-card')).not.toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Order number or e-mail' });
    await user.type(search, ' #O-CARD {Enter}');
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Orders' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(bodies.at(-1)).toMatchObject({ query: '#O-CARD' });
    await user.clear(search);
    await user.type(search, 'nobody@example.test');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No order matches “nobody@example.test”.')).toBeInTheDocument();
    await user.clear(search);
    expect(await screen.findByRole('table', { name: 'Orders' })).toBeInTheDocument();
    expect(bodies.at(-1)).not.toHaveProperty('query');
  });

  it('shows what was bought, the coupon and every refund with its reason and who made it', async () => {
    const order = testAdminOrder({
      ...cardOrder,
      items: [
        {
          productId: 'p1',
          alias: 'pro',
          title: 'Pro unlock',
          price: { amount: 199, currency: 'USD' },
          creditPrice: null,
          quantity: 2,
        },
      ],
      couponCode: 'TENOFF',
      discount: { amount: 40, currency: 'USD' },
      refundHistory: [
        {
          amount: { amount: 50, currency: 'USD' },
          keptGrants: true,
          reason: 'late delivery',
          by: 'olga@example.test',
          at: '2026-01-02T10:00:00.000Z',
        },
        {
          amount: { amount: 25, currency: 'USD' },
          keptGrants: false,
          reason: null,
          by: null,
          at: '2026-01-03T10:00:00.000Z',
        },
      ],
    });
    const { till } = server([order]);
    renderWithApp(<OrdersAdmin />, { till });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Details of order #O-CARD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order #O-CARD' });
    // The items table the buyer's order page shows: quantity, unit price and line total.
    const line = within(within(dialog).getByRole('table')).getByRole('row', { name: /^Pro unlock/ });
    expect(line).toHaveTextContent('Pro unlock2 × $1.992$1.99$3.98');
    expect(within(dialog).getByText('TENOFF (−$0.40)')).toBeInTheDocument();
    const refunds = within(within(dialog).getByRole('list', { name: 'Refunds' })).getAllByRole('listitem');
    expect(refunds[0]).toHaveTextContent(
      `$0.50 on ${formatDate('2026-01-02T10:00:00.000Z', 'en')} by olga@example.test · money only, the buyer kept what the order granted`,
    );
    expect(refunds[0]).toHaveTextContent('Reason: late delivery');
    expect(refunds[1]).toHaveTextContent('$0.25');
    expect(refunds[1]).toHaveTextContent('by someone no longer on record · what the order granted was taken back');
    expect(refunds[1]).toHaveTextContent('no reason given');
  });

  it("marks a store's test purchase in the list and in its details", async () => {
    const review = testAdminOrder({
      ...testOrder({ status: 'paid', provider: 'appstore' }),
      iden: 'o-review',
      payment: { ...cardOrder.payment, refs: [], sandbox: true },
    });
    const { till } = server([review, cardOrder]);
    renderWithApp(<OrdersAdmin />, { till });
    expect(await screen.findAllByText('Test purchase')).toHaveLength(1);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Details of order #REVIEW' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order #REVIEW' });
    expect(within(dialog).getByText('Test purchase')).toBeInTheDocument();
    expect(within(dialog).getByText(/no money was taken/)).toBeInTheDocument();
  });

  it('shows a refund asked of the provider, the credits not taken back and the end of a subscription', async () => {
    const asked = '2026-02-01T10:00:00.000Z';
    const ended = '2026-03-01T00:00:00.000Z';
    const refunded = testAdminOrder({
      ...testOrder({ status: 'refunded', provider: 'card' }),
      iden: 'o-ref',
      payment: {
        refs: [{ kind: 'subscription', ref: 'sub_1' }],
        refundRequestedAt: asked,
        shortfallCredits: 40,
        subscriptionEndedAt: ended,
        refundedAmount: 0,
        sandbox: false,
      },
    });
    const requested = testAdminOrder({
      iden: 'o-req',
      payment: { ...cardOrder.payment, refundRequestedAt: asked },
    });
    const { till } = server([refunded, requested]);
    renderWithApp(<OrdersAdmin />, { till });
    const date = formatDate(asked, 'en');
    const waiting = `Refund asked of the provider on ${date}; waiting for its confirmation`;
    // In the list: the paid order whose refund waits for the provider says so, and cannot be refunded twice.
    expect(await screen.findByText(waiting)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Refund order #O-REQ' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Details of order #O-REF' }));
    let dialog = await screen.findByRole('dialog', { name: 'Order #O-REF' });
    expect(within(dialog).getByText(`Refunded (asked of the provider on ${date})`)).toBeInTheDocument();
    expect(within(dialog).getByText('40 credits could not be taken back')).toBeInTheDocument();
    expect(within(dialog).getByText('Subscription ended').nextElementSibling).toHaveTextContent(
      formatDate(ended, 'en'),
    );
    expect(
      within(within(dialog).getByRole('list', { name: 'Provider references' })).getByRole('listitem'),
    ).toHaveTextContent('subscription sub_1');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Details of order #O-REQ' }));
    dialog = await screen.findByRole('dialog', { name: 'Order #O-REQ' });
    expect(within(dialog).getByText(waiting)).toBeInTheDocument();
  });

  it('says a card refund is asked of the provider when the answer is still paid', async () => {
    const asked = '2026-02-01T10:00:00.000Z';
    const { till, paths } = server([cardOrder], (iden) =>
      testAdminOrder({ ...cardOrder, iden, payment: { ...cardOrder.payment, refundRequestedAt: asked } }),
    );
    renderWithApp(<OrdersAdmin />, { till });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Refund order #O-CARD' }));
    const confirm = await screen.findByRole('dialog', { name: 'Refund the order?' });
    expect(confirm).toHaveTextContent('The refund of order #O-CARD of ada@example.test is asked of the provider.');
    await user.click(within(confirm).getByRole('button', { name: 'Refund' }));
    expect(
      await screen.findByText(
        'The refund of order #O-CARD is asked of the provider; the order turns refunded once the provider confirms.',
      ),
    ).toBeInTheDocument();
    expect(paths).toContain('api/admin/orders/refund');
  });

  it('refunds part of the money only: the amount checked, then sent with keepGrants', async () => {
    const sandbox = testAdminOrder({
      ...testOrder({ status: 'paid', provider: 'default' }),
      iden: 'o-sand',
      payment: { ...cardOrder.payment, refs: [], refundedAmount: 50 },
    });
    const bodies: Record<string, unknown>[] = [];
    const till = fakeTill((path, body) => {
      if (path === 'api/admin/orders/list') return { code: 900, data: { orders: [sandbox], total: 1 } };
      if (path === 'api/admin/orders/refund') {
        bodies.push(body);
        return {
          code: 900,
          data: { order: { ...sandbox, payment: { ...sandbox.payment, refundedAmount: 50 + Number(body.amount) } } },
        };
      }
      return { code: 904, parameter: 'path' };
    });
    signInFake(till, 9);
    renderWithApp(<OrdersAdmin />, { till });
    const user = userEvent.setup();
    const total = sandbox.total.amount;
    // The list says what went back already.
    expect(await screen.findByText('$0.50 refunded')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Refund order #O-SAND' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund the order?' });
    expect(dialog).toHaveTextContent(`$0.50 already refunded; $${((total - 50) / 100).toFixed(2)} left.`);
    // The text says what the choice does: the whole order takes back what it granted, money only nothing.
    expect(dialog).toHaveTextContent('what it granted is taken back');
    await user.click(within(dialog).getByRole('radio', { name: /Money only/ }));
    expect(dialog).not.toHaveTextContent('what it granted is taken back');
    expect(dialog).toHaveTextContent('Nothing is taken back: the buyer keeps what the order granted.');
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    expect(amount).toHaveValue(((total - 50) / 100).toFixed(2));
    await user.clear(amount);
    await user.type(amount, '999');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      within(dialog).getByText(`At most $${((total - 50) / 100).toFixed(2)}, what is left to refund.`),
    ).toBeVisible();
    expect(bodies).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '0.25');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'late delivery');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      await screen.findByText('$0.25 of order #O-SAND refunded; the buyer keeps what it granted.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([
      { token: expect.any(String), iden: 'o-sand', reason: 'late delivery', amount: 25, keepGrants: true },
    ]);
  });

  it('names the reason of a refused refund', async () => {
    const refusing = fakeTill((path) =>
      path === 'api/admin/orders/list'
        ? {
            code: 900,
            data: {
              orders: [testAdminOrder({ ...testOrder({ status: 'paid', provider: 'default' }), iden: 'o-x' })],
              total: 1,
            },
          }
        : { code: 912, status: 'paid', reason: 'credits_spent' },
    );
    signInFake(refusing, 9);
    renderWithApp(<OrdersAdmin />, { till: refusing });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Refund order #O-X' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund the order?' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(
      await screen.findByText(
        'The buyer has already spent the credits this order granted, so it cannot be refunded whole. Refund the money only instead.',
      ),
    ).toBeInTheDocument();
  });
});
