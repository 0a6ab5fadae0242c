import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from './api-error';

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

/** Splits a field message into its key and the count it carries. */
export function parseMessage(message: string): { key: string; count?: number } {
  const [key = message, n] = message.split('#');
  return n === undefined ? { key } : { key, count: Number(n) };
}

/**
 * The field a server refusal belongs on, if the form has it: a 907 names its field; a 902 on a
 * form with a `currentPassword` field means that password was wrong. Anything else is for the
 * whole form.
 */
function fieldOf(error: unknown, fields: readonly string[]): { field: string; message: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 902 && fields.includes('currentPassword'))
    return { field: 'currentPassword', message: 'validation.wrong_password' };
  if (error.code !== 907) return undefined;
  const parameter = error.body.parameter ?? '';
  if (!fields.includes(parameter)) return undefined;
  const reason = error.body.reason ?? 'invalid';
  // The server names no bound for too_short/too_long, so those read without a number.
  const key = reason === 'too_short' || reason === 'too_long' ? `validation.${reason}_plain` : `validation.${reason}`;
  return { field: parameter, message: key };
}

/**
 * Shows a server refusal on the field it belongs to and answers true; anything else answers false
 * so the caller shows it as a form-level error.
 */
export function showFieldError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): boolean {
  const target = fieldOf(error, fields);
  if (!target) return false;
  setError(target.field as Path<T>, { type: 'server', message: target.message }, { shouldFocus: true });
  return true;
}

/** Whether a failure belongs on one of the form's fields rather than above the form. */
export function isFieldError(error: unknown, fields: readonly string[]): boolean {
  return fieldOf(error, fields) !== undefined;
}

/** The failure to show above the form: one that no field of the form shows, else null. */
export function formLevelError(error: unknown, fields: readonly string[]): unknown {
  return error && !isFieldError(error, fields) ? error : null;
}
