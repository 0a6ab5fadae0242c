import { spawn } from 'node:child_process';
import { cliEntry } from '@till/server/testing';

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
