import { z } from 'zod';

/** Thrown when the environment holds a bad value; the message names the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** A comma-separated list; unset is empty. */
export const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** Both variables of a pair, or neither: one alone is a route half set up, which stops the start. */
export function pair(
  names: [string, string],
  values: [string | undefined, string | undefined],
): [string, string] | undefined {
  const [a, b] = values;
  if (a && b) return [a, b];
  if (a) throw new ConfigError(names[1], `is required when ${names[0]} is set`);
  if (b) throw new ConfigError(names[0], `is required when ${names[1]} is set`);
  return undefined;
}

/**
 * A payment provider's part of the configuration, kept in its own folder (`config.ts`): its
 * variables, each with its schema and default, and how its settings are read from them. `read`
 * answers undefined while the provider is not set up, and throws a {@link ConfigError} naming the
 * variable that is wrong or missing. `config.ts` composes them, one line a provider.
 */
export interface ProviderConfig<Shape extends z.ZodRawShape, Settings> {
  variables: Shape;
  read(env: z.output<z.ZodObject<Shape>>): Settings | undefined;
}

/** Declares a provider's {@link ProviderConfig}, its types inferred. */
export function providerConfig<Shape extends z.ZodRawShape, Settings>(
  config: ProviderConfig<Shape, Settings>,
): ProviderConfig<Shape, Settings> {
  return config;
}
