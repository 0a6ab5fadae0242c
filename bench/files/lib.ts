import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

export const MB = 1024 * 1024;
// Text, so that the server's type check accepts it; random so that nothing compresses or dedupes it.
const chunk = Buffer.from(randomBytes(MB).toString('base64').slice(0, MB));

export async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** Peak and current resident memory of a process, in MB, from the kernel's own accounting. */
export function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
}

/** Samples a process's RSS every 20 ms; `stop()` answers the peak (the kernel's high-water mark included). */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, memoryOf(pid).rss)), 20);
  }

  stop(): number {
    clearInterval(this.timer);
    return Math.max(this.peak, memoryOf(this.pid).hwm);
  }
}

/** Posts one multipart upload of `size` bytes, streamed from a 1 MB buffer; answers the JSON body. */
export function upload(url: string, token: string, size: number): Promise<{ code: number }> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString()) as { code: number }));
    });
    let sent = 0;
    const pump = () => {
      let ok = true;
      if (sent === 0) ok = req.write(head);
      while (ok && sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        ok = req.write(n === chunk.length ? chunk : chunk.subarray(0, n));
      }
      if (sent >= size) req.end(tail);
      else req.once('drain', pump);
    };
    pump();
  });
}

/** Uploads `count` files of `size` bytes, `parallel` at a time; answers MB/s. */
export async function throughput(url: string, token: string, size: number, count: number, parallel: number) {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await upload(url, token, size);
      if (res.code !== 900) throw new Error(`upload answered ${JSON.stringify(res)}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return (size * count) / MB / ((performance.now() - start) / 1000);
}
