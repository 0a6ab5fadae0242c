import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, messageKeys, parameterNames } from './api-error';

/**
 * Turns a zod issue into a translation key, with the bound after `#` when there is one
 * (`validation.too_short#8`). The same machine words as the server's 907 reasons.
 */
export function issueToMessage(issue: {
  code: string;
  input?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
}): string {
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
    return 'validation.required';
  if (issue.code === 'too_small') {
    if (issue.origin === 'string' && (issue.minimum === 1 || issue.input === '')) return 'validation.required';
    return `validation.too_short#${String(issue.minimum)}`;
  }
  if (issue.code === 'too_big') return `validation.too_long#${String(issue.maximum)}`;
  return 'validation.invalid';
}

/** A react-hook-form resolver from a protocol schema whose messages are translation keys. */
export function schemaResolver<S extends z.ZodType<FieldValues, FieldValues>>(schema: S) {
  return zodResolver(schema, { error: (issue) => issueToMessage(issue) });
}

/**
 * Splits a field message into the keys to try, first found wins, and the count it carries:
 * `validation.too_short#8`, or `admin.reasons.907.alias.taken|validation.taken` from a server refusal.
 */
export function parseMessage(message: string): { key: string | string[]; count?: number } {
  const [keys = message, n] = message.split('#');
  const list = keys.split('|');
  const key = list.length === 1 ? keys : list;
  return n === undefined ? { key } : { key, count: Number(n) };
}

/**
 * The form's fields a server refusal may name: field names, or the parameters the server names
 * mapped to the field that shows them (`{ code: 'value', recoveryCode: 'value' }`).
 */
export type FormFields = readonly string[] | Readonly<Record<string, string>>;

/** How a refusal reads on its field: a short note (`Already in use`), or the whole message. */
export type FieldTextLength = 'short' | 'full';

/**
 * The form field a 907 belongs on: its parameter whole, else the parameter's last part, else its
 * first (`coupon.usageLimit` on `usageLimit`), if the form has it.
 */
export function fieldOfParameter(error: unknown, fields: FormFields): string | undefined {
  if (!(error instanceof ApiError) || error.code !== 907) return undefined;
  const parameter = error.body.parameter ?? '';
  const map: Readonly<Record<string, string>> = Array.isArray(fields)
    ? Object.fromEntries((fields as readonly string[]).map((f) => [f, f]))
    : (fields as Readonly<Record<string, string>>);
  for (const name of [parameter, ...parameterNames(parameter)]) if (name && Object.hasOwn(map, name)) return map[name];
  return undefined;
}

function fieldNames(fields: FormFields): readonly string[] {
  return Array.isArray(fields) ? (fields as readonly string[]) : Object.values(fields);
}

/**
 * The field a server refusal belongs on, if the form has it, and the keys of its text there: a 907
 * names its field; a 902 on a form with a `currentPassword` field means that password was wrong.
 * Anything else is for the whole form. A short note is the scope's text for that field and reason
 * (`admin.reasons.907.alias.taken`), else `validation.{reason}`; the full one is the message
 * {@link messageKeys} gives.
 */
function fieldOf(
  error: unknown,
  fields: FormFields,
  scope?: string,
  length: FieldTextLength = 'short',
): { field: string; message: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 902 && fieldNames(fields).includes('currentPassword'))
    return { field: 'currentPassword', message: 'validation.wrong_password' };
  const field = fieldOfParameter(error, fields);
  if (field === undefined) return undefined;
  if (length === 'full') return { field, message: messageKeys(error, scope).join('|') };
  const reason = error.body.reason ?? 'invalid';
  const own = scope ? parameterNames(error.body.parameter).map((name) => `${scope}.reasons.907.${name}.${reason}`) : [];
  // The server names no bound for too_short/too_long, so those read without a number.
  const plain = reason === 'too_short' || reason === 'too_long' ? `validation.${reason}_plain` : `validation.${reason}`;
  return { field, message: [...own, plain].join('|') };
}

/**
 * Shows a server refusal on the field it belongs to and answers true; anything else answers false
 * so the caller shows it as a form-level error (see {@link formLevelError}).
 *
 * @example
 * onError: (error) => showFieldError(error, setError, ['alias', 'usageLimit'], 'admin')
 */
export function showFieldError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: FormFields,
  scope?: string,
  length?: FieldTextLength,
): boolean {
  const target = fieldOf(error, fields, scope, length);
  if (!target) return false;
  setError(target.field as Path<T>, { type: 'server', message: target.message }, { shouldFocus: true });
  return true;
}

/** Whether a failure belongs on one of the form's fields rather than above the form. */
export function isFieldError(error: unknown, fields: FormFields): boolean {
  return fieldOf(error, fields) !== undefined;
}

/** The failure to show above the form: one that no field of the form shows, else null. */
export function formLevelError(error: unknown, fields: FormFields): unknown {
  return error && !isFieldError(error, fields) ? error : null;
}
