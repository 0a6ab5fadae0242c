import { useTranslation } from '@/lib/i18n-react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { Code } from '@till/protocol';
import { useErrorMessage } from '@/components/states';
import { ApiError } from '@/lib/api-error';

/**
 * The key of an administrator's message for a refusal, or null when the general message says it
 * well enough (a lost connection, an ended session). Administrators get the reason the server
 * names: which field, which state, which limit.
 */
export function adminErrorKey(error: unknown): { key: string; values?: Record<string, unknown> } | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body;
  switch (error.code) {
    case Code.Forbidden:
      return { key: 'admin.errors.forbidden' };
    case Code.NotFound:
      return { key: 'admin.errors.notFound', values: { parameter: fieldName(body.parameter) } };
    case Code.InvalidInput: {
      const field = fieldName(body.parameter);
      const reason = body.reason ?? 'invalid';
      const specific = `${field}.${reason}`;
      if (SPECIFIC.has(specific)) return { key: `admin.errors.input.${specific}` };
      return { key: `admin.errors.reason.${REASONS.has(reason) ? reason : 'invalid'}`, values: { field } };
    }
    case Code.NotEnoughCredits:
      return { key: 'admin.errors.notEnoughCredits', values: { balance: body.balance ?? 0 } };
    case Code.Conflict: {
      if (body.reason === 'credits_spent') return { key: 'admin.errors.creditsSpent' };
      if (body.reason === 'provider_reverses') return { key: 'admin.errors.providerReverses' };
      return { key: 'admin.errors.conflict', values: { status: body.status ?? '' } };
    }
    case Code.PaymentRejected:
      return { key: 'admin.errors.provider', values: { reason: body.reason ?? '' } };
    case Code.TooManyRequests:
      return { key: 'admin.errors.tooMany', values: { seconds: body.retryAfter ?? 60 } };
    default:
      return null;
  }
}

/** Field and reason pairs with a message of their own. */
const SPECIFIC = new Set([
  'usageLimit.too_short',
  'alias.taken',
  'id.taken',
  'storeIds.taken',
  'grantProducts.invalid',
  'appliesTo.invalid',
  'userId.unconfirmed',
  'userId.configured',
  'userId.invalid',
  'amount.too_long',
  'amount.required',
  'keepGrants.required',
  'period.required',
  'period.invalid',
  'imageUrl.invalid',
  'percentOff.invalid',
  'grantCredits.required',
  'endsAt.invalid',
]);
const REASONS = new Set(['required', 'invalid', 'too_short', 'too_long', 'taken', 'type', 'too_large', 'quota']);

/** The last part of a server's parameter path: `coupon.usageLimit` -> `usageLimit`, `product.grants.period` -> `period`. */
export function fieldName(parameter: string | undefined): string {
  const parts = (parameter ?? '').split('.');
  return parts[parts.length - 1] || 'input';
}

/** The message for any refusal an administrator meets: the reason where the server gave one. */
export function useAdminErrorMessage() {
  const { t } = useTranslation();
  const general = useErrorMessage();
  return (error: unknown): string => {
    const found = adminErrorKey(error);
    if (!found) return general(error);
    const values = { ...found.values };
    if (typeof values.field === 'string')
      values.field = t(`admin.fields.${values.field}`, { defaultValue: values.field });
    if (typeof values.parameter === 'string')
      values.parameter = t(`admin.fields.${values.parameter}`, { defaultValue: values.parameter });
    if (typeof values.status === 'string' && values.status)
      values.status = t(`admin.status.${values.status}`, { defaultValue: values.status });
    return t(found.key, { ...values, defaultValue: general(error) });
  };
}

/**
 * Puts a server's 907 on the form's field it names (`coupon.usageLimit` on `usageLimit`) with the
 * administrator's message for it; answers false when no field of the form matches.
 */
export function showAdminFieldError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): boolean {
  if (!(error instanceof ApiError) || error.code !== Code.InvalidInput) return false;
  const field = fieldName(error.body.parameter);
  if (!fields.includes(field)) return false;
  const found = adminErrorKey(error);
  const reason = error.body.reason ?? 'invalid';
  const plain = reason === 'too_short' || reason === 'too_long' ? `validation.${reason}_plain` : `validation.${reason}`;
  const message = found && !found.values ? found.key : plain;
  setError(field as Path<T>, { type: 'server', message }, { shouldFocus: true });
  return true;
}

/** The failure to show above an admin form: one no field of the form shows. */
export function adminFormLevelError(error: unknown, fields: readonly string[]): unknown {
  if (!error) return null;
  if (error instanceof ApiError && error.code === Code.InvalidInput && fields.includes(fieldName(error.body.parameter)))
    return null;
  return error;
}
