import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeTill, renderWithApp, signInFake, testI18nGerman } from '@/test/render';
import { RedeemForm } from './redeem-form';

/** A server that refuses every coupon with 908 and the given reason. */
function refusing(reason: string) {
  const till = fakeTill((path) =>
    path === 'api/store/redeemCoupon' ? { code: 908, reason } : { code: 904, parameter: 'path' },
  );
  signInFake(till);
  return till;
}

async function redeem(code: string, button = 'Redeem') {
  await userEvent.type(screen.getByRole('textbox'), code);
  await userEvent.click(screen.getByRole('button', { name: button }));
}

describe('RedeemForm', () => {
  it("puts a refused coupon's reason on the field, in the words the checkout uses for it", async () => {
    renderWithApp(<RedeemForm checkoutHref={(c) => `/checkout?coupon=${c}`} />, { till: refusing('expired') });
    await redeem('OLD2020');
    expect(await screen.findByText('This coupon has expired.')).toBeVisible();
    expect(screen.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  });

  it('says so in German, and leads a discount code to the checkout', async () => {
    renderWithApp(<RedeemForm checkoutHref={(c) => `/checkout?coupon=${c}`} />, {
      till: refusing('discount_coupon'),
      i18n: testI18nGerman(),
    });
    await redeem('SAVE10', 'Einlösen');
    expect(
      await screen.findByText('Das ist ein Rabattcode: Er gilt für einen Kauf. Gib ihn an der Kasse ein.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'SAVE10 an der Kasse verwenden' })).toHaveAttribute(
      'href',
      '/checkout?coupon=SAVE10',
    );
  });

  it('falls back to the general text for a refusal without a reason', async () => {
    const till = fakeTill(() => ({ code: 908 }));
    signInFake(till);
    renderWithApp(<RedeemForm checkoutHref={(c) => c} />, { till });
    await redeem('WHAT');
    expect(await screen.findByText('This coupon cannot be used.')).toBeVisible();
  });
});
