import { describe, expect, it } from 'vitest';
import type { UseFormSetError } from 'react-hook-form';
import { ApiError, type FailureBody } from './api-error';
import { fieldOfParameter, formLevelError, parseMessage, showFieldError } from './form';

const fail = (body: Record<string, unknown>) => new ApiError(body as unknown as FailureBody);

/** A form's setError that keeps what it was told. */
function recorder() {
  const set: Record<string, string | undefined> = {};
  const setError = ((name: string, error: { message?: string }) => {
    set[name] = error.message;
  }) as unknown as UseFormSetError<Record<string, string>>;
  return { set, setError };
}

describe('showFieldError', () => {
  it('puts a 907 on the field its parameter names, with the plain validation text', () => {
    const { set, setError } = recorder();
    expect(showFieldError(fail({ code: 907, parameter: 'email', reason: 'taken' }), setError, ['email'])).toBe(true);
    expect(set).toEqual({ email: 'validation.taken' });
  });

  it("with a scope: the scope's text for that field and reason first, by the parameter's last part", () => {
    const { set, setError } = recorder();
    const error = fail({ code: 907, parameter: 'coupon.usageLimit', reason: 'too_short' });
    expect(showFieldError(error, setError, ['code', 'usageLimit'], 'admin')).toBe(true);
    expect(set).toEqual({
      usageLimit:
        'admin.reasons.907.usageLimit.too_short|admin.reasons.907.coupon.too_short|validation.too_short_plain',
    });
    expect(parseMessage(set.usageLimit!).key).toEqual([
      'admin.reasons.907.usageLimit.too_short',
      'admin.reasons.907.coupon.too_short',
      'validation.too_short_plain',
    ]);
  });

  it('maps parameters onto the field that shows them, and gives the whole message when asked', () => {
    const { set, setError } = recorder();
    const error = fail({ code: 907, parameter: 'recoveryCode', reason: 'invalid' });
    expect(showFieldError(error, setError, { code: 'value', recoveryCode: 'value' }, undefined, 'full')).toBe(true);
    expect(set.value?.split('|').slice(0, 2)).toEqual(['reasons.907.recoveryCode.invalid', 'reasons.907.invalid']);
  });

  it('puts a 902 on currentPassword when the form has one, and leaves other failures to the form', () => {
    const { set, setError } = recorder();
    expect(showFieldError(fail({ code: 902 }), setError, ['currentPassword'])).toBe(true);
    expect(set).toEqual({ currentPassword: 'validation.wrong_password' });
    expect(showFieldError(fail({ code: 902 }), setError, ['code'])).toBe(false);
    expect(showFieldError(fail({ code: 907, parameter: 'name', reason: 'required' }), setError, ['email'])).toBe(false);
    expect(showFieldError(fail({ code: 912, reason: 'state' }), setError, ['email'])).toBe(false);
    expect(showFieldError(new Error('offline'), setError, ['email'])).toBe(false);
  });
});

describe('formLevelError', () => {
  it('answers only a failure no field of the form shows', () => {
    const onField = fail({ code: 907, parameter: 'product.alias', reason: 'taken' });
    const elsewhere = fail({ code: 907, parameter: 'product.storeIds', reason: 'taken' });
    expect(formLevelError(onField, ['alias'])).toBeNull();
    expect(formLevelError(elsewhere, ['alias'])).toBe(elsewhere);
    expect(formLevelError(null, ['alias'])).toBeNull();
  });
});

describe('fieldOfParameter', () => {
  it('tries the whole parameter, then its last part, then its first', () => {
    const error = fail({ code: 907, parameter: 'items.0.id', reason: 'invalid' });
    expect(fieldOfParameter(error, ['id', 'items'])).toBe('id');
    expect(fieldOfParameter(error, ['items'])).toBe('items');
    expect(fieldOfParameter(fail({ code: 907, parameter: 'a.b' }), ['a.b', 'b'])).toBe('a.b');
    expect(fieldOfParameter(fail({ code: 904, parameter: 'id' }), ['id'])).toBeUndefined();
  });
});

describe('parseMessage', () => {
  it('keeps a single key as a string and the count after #', () => {
    expect(parseMessage('validation.too_short#8')).toEqual({ key: 'validation.too_short', count: 8 });
    expect(parseMessage('validation.required')).toEqual({ key: 'validation.required' });
  });
});
