import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Order } from '@till/protocol';
import { getContrastRatio } from '@mui/material/styles';
import { theme } from '@/lib/theme';
import { testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, signInFake, testI18nGerman } from '@/test/render';
import { OrderList } from './order-list';
import { refundChipColors } from './order-status-chip';

const refunded = testOrder({
  iden: 'r1',
  status: 'refunded',
  items: [{ ...testOrder().items[0]!, quantity: 2 }],
  subtotal: { amount: 398, currency: 'USD' },
  total: { amount: 398, currency: 'USD' },
  refunds: [
    { amount: { amount: 398, currency: 'USD' }, credits: 0, at: '2026-01-03T10:00:00.000Z', grantsTakenBack: true },
  ],
});
const partly = testOrder({
  iden: 'p1',
  status: 'paid',
  refunds: [
    { amount: { amount: 50, currency: 'USD' }, credits: 0, at: '2026-01-02T10:00:00.000Z', grantsTakenBack: false },
  ],
});
const plain = testOrder({ iden: 'n1', status: 'paid', refunds: [] });

function serve(orders: Order[]) {
  const till = fakeTill(() => ({ code: 900, data: { orders, total: orders.length } }));
  signInFake(till);
  return till;
}
const row = (name: RegExp) => screen.getAllByRole('listitem').find((li) => name.test(li.textContent ?? ''))!;

describe('OrderList', () => {
  it('marks refunded and partly refunded orders, with each refund’s amount, date and what was taken back', async () => {
    renderWithApp(<OrderList orderHref={(iden) => `/orders/${iden}`} />, { till: serve([refunded, partly, plain]) });
    await screen.findByRole('list', { name: 'Orders' });
    const whole = row(/#R1/i);
    expect(within(whole).getByText('Refunded')).toBeInTheDocument();
    expect(
      within(whole).getByText(/^\$3\.98 given back on Jan 3, 2026.*\. Taken back: 2 × 100 credits\.$/),
    ).toBeInTheDocument();
    const part = row(/#P1/i);
    expect(within(part).getByText('Partly refunded')).toBeInTheDocument();
    expect(
      within(part).getByText(/^\$0\.50 given back on Jan 2, 2026.*\. Money only: you keep what you bought\.$/),
    ).toBeInTheDocument();
    const none = row(/#N1/i);
    expect(within(none).getByText('Paid')).toBeInTheDocument();
    expect(within(none).queryByText(/given back/)).not.toBeInTheDocument();
  });

  it('says the same in German', async () => {
    renderWithApp(<OrderList orderHref={(iden) => `/orders/${iden}`} />, {
      till: serve([refunded, partly]),
      i18n: testI18nGerman(),
    });
    await screen.findByRole('list', { name: 'Bestellungen' });
    expect(within(row(/#R1/i)).getByText('Erstattet')).toBeInTheDocument();
    expect(
      within(row(/#R1/i)).getByText(/^3,98 \$ erstattet am .*\. Zurückgenommen: 2 × 100 credits\.$/),
    ).toBeInTheDocument();
    expect(within(row(/#P1/i)).getByText('Teilweise erstattet')).toBeInTheDocument();
    expect(within(row(/#P1/i)).getByText(/Nur Geld: Was du gekauft hast, behältst du\.$/)).toBeInTheDocument();
  });

  it('draws the refund chips with at least 4.5:1 contrast', () => {
    const { refunded: whole, partly: part } = refundChipColors(theme);
    expect(getContrastRatio(whole.text, whole.background)).toBeGreaterThanOrEqual(4.5);
    expect(getContrastRatio(part.text, part.background)).toBeGreaterThanOrEqual(4.5);
  });
});
