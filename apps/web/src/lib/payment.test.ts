import { afterEach, describe, expect, it, vi } from 'vitest';
import { setScreen } from '@/test/fixtures';
import { framedPaymentFrom, goToPayment, opensInFrame } from './payment';

const widget = { provider: 'paywall', url: 'https://api.paymentwall.test/api/subscription?key=k' } as const;

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'Capacitor');
});

describe('payments', () => {
  it("opens a provider's page in the same window", () => {
    const assign = vi.fn();
    goToPayment({ provider: 'card', url: 'https://checkout.stripe.test/c/pay/cs_1' }, {
      location: { assign },
    } as unknown as Window);
    expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1');
  });

  it('frames only the payment wall, and only where the screen is wide', () => {
    setScreen({ width: 1280, height: 800 });
    expect(opensInFrame(widget)).toBe(true);
    expect(opensInFrame({ provider: 'card', url: 'https://checkout.stripe.test/c/pay/cs_1' })).toBe(false);
    expect(opensInFrame({ provider: 'paywall', form: { action: '/x', method: 'POST', fields: {} } })).toBe(false);
    expect(opensInFrame({ provider: 'paywall', url: 'javascript:alert(1)' })).toBe(false);
    setScreen({ width: 360, height: 640 });
    expect(opensInFrame(widget)).toBe(false);
    // A phone on its side is wide but short.
    setScreen({ width: 960, height: 400 });
    expect(opensInFrame(widget)).toBe(false);
  });

  it('never frames inside the native shell', () => {
    setScreen({ width: 1280, height: 800 });
    Object.assign(globalThis, { Capacitor: { isNativePlatform: () => true } });
    expect(opensInFrame(widget)).toBe(false);
  });

  it('takes a framed payment from router state and nothing else', () => {
    expect(framedPaymentFrom({ payment: widget })).toEqual(widget);
    expect(framedPaymentFrom(null)).toBeNull();
    expect(framedPaymentFrom({ payment: { provider: 'card', url: 'https://x.test' } })).toBeNull();
    expect(framedPaymentFrom({ payment: { provider: 'paywall' } })).toBeNull();
  });
});
