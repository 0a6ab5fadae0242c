import { ConfigError, loadConfig } from '@till/server';

/** The variable a configuration is refused for, or undefined when it loads. */
export function configProblem(env: Record<string, string>): string | undefined {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    return error instanceof ConfigError ? error.variable : String(error);
  }
}
