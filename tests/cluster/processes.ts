import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_MAIN } from '@till/test-support/cli';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One server process: `node packages/server/dist/main.js`, as deployed. */
export interface ServerProcess {
  name: string;
  port: number;
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code, or the signal's name. */
  exited: Promise<number | string | null>;
  /** Everything it printed (its JSON log lines). */
  output(): string;
}

const running = new Set<ChildProcess>();
/** Every server process started, in order (killed ones too), for their logs. */
export const started: ServerProcess[] = [];

/** Kills every server process still running: the suite's `afterAll`, and a last resort at exit. */
export function killAll(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);

/** Starts the built server with `env` and waits until `/api/ready` says it takes traffic. */
export async function startServer(name: string, port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = { name, port, base, child, exited, output: () => out };
  started.push(proc);
  // The limit catches a server that never takes traffic, not a slow machine: CI builds the container
  // image beside the suites, and a restart there once took over 30 s before its first line of output.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited at start:\n${out}`);
    const ready = await fetch(`${base}/api/ready`)
      .then((r) => r.status)
      .catch(() => 0);
    if (ready === 200) return proc;
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 120 s:\n${out}`);
    await sleep(100);
  }
}
