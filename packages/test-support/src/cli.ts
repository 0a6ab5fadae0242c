import { spawn } from 'node:child_process';
import { cliEntry } from '@till/server/testing';

/**
 * The time limit of a test that runs commands or the server in processes of their own: each is a
 * Node process that compiles the server's TypeScript as it loads (tsx), a few seconds on a quiet
 * machine and up to half a minute on a slow one with both cores busy. Like every limit in the suite,
 * it catches a process that hangs, not a slow machine.
 */
export const COMMAND_TEST_TIMEOUT = 240_000;

/** Runs one of the server's commands (`cli/NAME.ts`) in a process of its own; answers its exit code and output. */
export function runCli(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const entry = cliEntry(name);
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
