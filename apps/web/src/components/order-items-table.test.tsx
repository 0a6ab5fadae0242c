import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Order } from '@till/protocol';
import { testOrder } from '@/test/fixtures';
import { fakeTill, renderWithApp, testI18nGerman } from '@/test/render';
import { OrderItemsTable } from './order-items-table';

const till = fakeTill(() => ({ code: 904 }));

/** Two packs of 100 credits at $1.99 and one Pro unlock at $4.99, with a coupon taking $0.50 off. */
const moneyOrder: Order = testOrder({
  status: 'paid',
  items: [
    {
      productId: 'credits-100',
      alias: 'credits-100',
      title: '100 credits',
      price: { amount: 199, currency: 'USD' },
      creditPrice: 150,
      quantity: 2,
    },
    {
      productId: 'pro-unlock',
      alias: 'pro-unlock',
      title: 'Pro unlock',
      price: { amount: 499, currency: 'USD' },
      creditPrice: 500,
      quantity: 1,
    },
  ],
  subtotal: { amount: 897, currency: 'USD' },
  discount: { amount: 50, currency: 'USD' },
  total: { amount: 847, currency: 'USD' },
  couponCode: 'HALF',
});

/** The cells of each row of the table, as text. */
function rows(): string[][] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .map((row) =>
      Array.from(row.querySelectorAll('th, td')).map((cell) => (cell.textContent ?? '').replace(/\u00a0/g, ' ')),
    );
}

describe('OrderItemsTable', () => {
  it('shows each line with its quantity, unit price and total, and figures that add up', () => {
    renderWithApp(<OrderItemsTable order={moneyOrder} />, { till });
    expect(screen.getByRole('table', { name: 'Items of the order' })).toBeInTheDocument();
    const [head, ...body] = rows();
    expect(head).toEqual(['Item', 'Quantity', 'Unit price', 'Amount']);
    // The item cell carries the phone's "2 × $1.99" too, shown where the columns are not.
    expect(body).toEqual([
      ['100 credits2 × $1.99', '2', '$1.99', '$3.98'],
      ['Pro unlock1 × $4.99', '1', '$4.99', '$4.99'],
      ['Subtotal', '', '', '$8.97'],
      ['Discount (HALF)', '', '', '−$0.50'],
      ['Total', '', '', '$8.47'],
    ]);
  });

  it('shows an order paid with credits in credits throughout, with no money price or empty total', () => {
    const order = testOrder({
      status: 'paid',
      provider: 'credits',
      items: [{ ...moneyOrder.items[0]!, quantity: 2 }],
      subtotal: { amount: 0, currency: 'USD' },
      total: { amount: 0, currency: 'USD' },
      creditsSpent: 300,
    });
    renderWithApp(<OrderItemsTable order={order} />, { till });
    const [, ...body] = rows();
    expect(body).toEqual([
      ['100 credits2 × 150 credits', '2', '150 credits', '300 credits'],
      ['Total in credits', '', '', '300 credits'],
    ]);
    expect(screen.queryByText(/\$/)).not.toBeInTheDocument();
  });

  it('speaks German', () => {
    renderWithApp(<OrderItemsTable order={moneyOrder} />, { till, i18n: testI18nGerman() });
    const [head, first, , subtotal, discount, total] = rows();
    expect(head).toEqual(['Artikel', 'Menge', 'Einzelpreis', 'Betrag']);
    expect(first).toEqual(['100 credits2 × 1,99 $', '2', '1,99 $', '3,98 $']);
    expect(subtotal).toEqual(['Zwischensumme', '', '', '8,97 $']);
    expect(discount?.[0]).toBe('Rabatt (HALF)');
    expect(total).toEqual(['Summe', '', '', '8,47 $']);
  });
});
