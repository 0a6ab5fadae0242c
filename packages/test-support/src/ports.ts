import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The system's range of ports for outgoing connections. Any connection the machine opens may take a
 * port of that range as its own while nobody listens on it, and a server then fails to bind it
 * (EADDRINUSE). Linux says it in /proc; elsewhere, the range the IANA suggests (macOS's).
 */
export function outgoingPortRange(procFile = '/proc/sys/net/ipv4/ip_local_port_range'): [number, number] {
  try {
    const [low, high] = readFileSync(procFile, 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux.
  }
  return [49152, 65535];
}

/** Ports below this are left to services the machine may run. */
const LOWEST = 10_000;
/** Handed out by this process: never twice, though a process that had one may be down. */
const given = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a process a test or benchmark starts itself and may stop and start again on the same
 * port (a server, a Redis, a browser's debugging port). Listening on port 0 would pick one from the
 * outgoing range, where the machine's own connections (to the database, between the test's
 * processes) can take it between the probe and the process's start, or while the process is down;
 * this picks a free one below that range, at random so that test files running side by side do
 * not pick the same.
 */
export async function portForProcess(): Promise<number> {
  const [outgoingLow] = outgoingPortRange();
  const highest = outgoingLow - 1;
  if (highest <= LOWEST) throw new Error(`the outgoing port range starts at ${outgoingLow}: no port left below it`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
    if (given.has(port)) continue;
    given.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${highest}`);
}
