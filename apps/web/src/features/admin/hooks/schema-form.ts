import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { issueToMessage } from '@/lib/form';

/**
 * A resolver for admin forms whose fields are flat text boxes but whose payload is the protocol's
 * nested input: `toInput` builds the payload, the protocol schema checks it, and each issue is put
 * back on the field that `fieldOf` names for its path.
 */
export function payloadResolver<F extends FieldValues, S extends z.ZodType>(
  schema: S,
  toInput: (fields: F) => unknown,
  fieldOf: (path: string) => keyof F & string,
): Resolver<F, unknown, F> {
  return async (values) => {
    const parsed = schema.safeParse(toInput(values));
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.map(String).join('.'));
      if (errors[field]) continue;
      const custom = issue.code === 'custom' ? `validation.${issue.message}` : issueToMessage(issue);
      errors[field] = { type: issue.code, message: custom };
    }
    return { values: {}, errors: errors as FieldErrors<F> };
  };
}

/** Money typed in major units ("4.99") as integer minor units, or null when empty. */
export function toMinor(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!trimmed) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? Math.round(n * 100) : NaN;
}

/** A whole number typed in a box, or null when empty. */
export function toInt(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const n = Number(trimmed);
  return Number.isInteger(n) ? n : NaN;
}
