import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminCoupon } from '@till/protocol';
import { fakeTill, renderWithApp, signInFake } from '@/test/render';
import { CouponsAdmin } from './coupons-admin';

function coupon(over: Partial<AdminCoupon> = {}): AdminCoupon {
  return {
    code: 'SPRING',
    kind: 'discount',
    percentOff: 15,
    amountOff: null,
    grantCredits: null,
    grantProducts: null,
    startsAt: null,
    endsAt: null,
    appliesTo: ['pro-unlock'],
    minTotal: { amount: 500, currency: 'USD' },
    usageLimit: 10,
    perUserLimit: null,
    used: 4,
    active: true,
    batch: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

function server(initial: AdminCoupon[], save?: (body: Record<string, unknown>) => unknown) {
  let coupons = initial;
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const till = fakeTill((path, body) => {
    calls.push({ path, body });
    if (path === 'api/admin/coupons/list') {
      const found = coupons.filter((c) => !body.query || c.code.startsWith(String(body.query).toUpperCase()));
      return { code: 900, data: { coupons: found, total: found.length } };
    }
    if (path === 'api/admin/coupons/setActive') {
      coupons = coupons.map((c) => (c.code === body.code ? { ...c, active: Boolean(body.active) } : c));
      return { code: 900, data: { coupon: coupons.find((c) => c.code === body.code) } };
    }
    if (path === 'api/admin/coupons/save' && save) return save(body);
    return { code: 904, parameter: 'path' };
  });
  signInFake(till, 9);
  return { till, calls };
}

describe('CouponsAdmin', () => {
  it('switches a coupon off and on again, saying what buyers meet', async () => {
    const { till, calls } = server([coupon()]);
    renderWithApp(<CouponsAdmin />, { till });
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Coupons' });
    expect(within(table).getByText('Active')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Switch off coupon SPRING' }));
    expect(
      await screen.findByText('Coupon SPRING is switched off: buyers are told it is no longer valid.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'api/admin/coupons/setActive')?.body).toMatchObject({
      code: 'SPRING',
      active: false,
    });
    expect(await within(table).findByText('Switched off')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Switch on coupon SPRING' }));
    expect(await screen.findByText('Coupon SPRING is on again: buyers can use it.')).toBeInTheDocument();
  });

  it('edits a coupon with its terms filled in, keeping what the form does not show', async () => {
    const { till, calls } = server([coupon()], (body) => ({ code: 900, data: { coupon: body.coupon } }));
    renderWithApp(<CouponsAdmin />, { till });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit coupon SPRING' });
    expect(within(dialog).getByRole('textbox', { name: /Code/ })).toHaveAttribute('readonly');
    const percent = within(dialog).getByRole('textbox', { name: 'Percent off' });
    expect(percent).toHaveValue('15');
    expect(within(dialog).getByRole('textbox', { name: 'Uses in total' })).toHaveValue('10');
    await user.clear(percent);
    await user.type(percent, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('status')).toHaveTextContent('Coupon SPRING saved.');
    expect(calls.find((c) => c.path === 'api/admin/coupons/save')?.body.coupon).toMatchObject({
      code: 'SPRING',
      percentOff: 20,
      usageLimit: 10,
      appliesTo: ['pro-unlock'],
      minTotal: { amount: 500, currency: 'USD' },
      active: true,
    });
  });

  it('finds coupons on the server by the start of their code, and says when none matches', async () => {
    const { till, calls } = server([coupon(), coupon({ code: 'SUMMER' })]);
    renderWithApp(<CouponsAdmin />, { till });
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Coupons' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const search = screen.getByRole('searchbox', { name: 'Code, its start, or batch' });
    await user.type(search, 'sum{Enter}');
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Coupons' })).getAllByRole('row')).toHaveLength(2),
    );
    expect(within(screen.getByRole('table', { name: 'Coupons' })).getByText('SUMMER')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'api/admin/coupons/list').at(-1)?.body).toMatchObject({ query: 'sum' });
    await user.clear(search);
    await user.type(search, 'WINTER');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No coupon matches “WINTER”.')).toBeInTheDocument();
  });

  it("puts the server's reason on the field it names", async () => {
    const { till } = server([coupon()], () => ({ code: 907, parameter: 'coupon.usageLimit', reason: 'too_short' }));
    renderWithApp(<CouponsAdmin />, { till });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit SPRING' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit coupon SPRING' });
    const limit = within(dialog).getByRole('textbox', { name: 'Uses in total' });
    await user.clear(limit);
    await user.type(limit, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('The limit is below the uses already made; raise it or switch the coupon off.'),
    ).toBeInTheDocument();
    expect(limit).toHaveAttribute('aria-invalid', 'true');
  });
});
