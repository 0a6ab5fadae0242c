import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outgoingPortRange, portForProcess } from './ports.js';

describe('ports for processes the tests start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'till-ports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the system's outgoing range, and takes the IANA's where the system does not say", () => {
    const file = join(dir, 'ip_local_port_range');
    writeFileSync(file, '32768\t60999\n');
    expect(outgoingPortRange(file)).toEqual([32768, 60999]);
    expect(outgoingPortRange(join(dir, 'missing'))).toEqual([49152, 65535]);
  });

  it('hands out free ports below the outgoing range, never the same one twice', async () => {
    const [low] = outgoingPortRange();
    const ports = [];
    for (let i = 0; i < 20; i++) ports.push(await portForProcess());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
      // Free: a server can listen on it now.
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
