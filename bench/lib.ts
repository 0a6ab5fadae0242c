import autocannon from 'autocannon';

/** Requests per second of one route under load, measured with autocannon on loopback. */
export async function measure(opts: {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  connections?: number;
  seconds?: number;
}): Promise<number> {
  const result = await autocannon({
    url: opts.url,
    method: opts.method ?? 'POST',
    headers: { 'content-type': 'application/json' },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
    connections: opts.connections ?? 10,
    duration: opts.seconds ?? 5,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${opts.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/** Prints one line: the figure, its baseline, the ratio and whether it meets the goal. */
export function report(name: string, value: number, baseline: number, baselineName: string, goal: number): boolean {
  const ratio = value / baseline;
  const ok = ratio >= goal;
  console.log(
    `${name.padEnd(22)} ${value.toFixed(0).padStart(8)}/s   ${baselineName} ${baseline.toFixed(0).padStart(8)}/s   ratio ${ratio.toFixed(2)} (goal >= ${goal.toFixed(2)}) ${ok ? 'met' : 'MISSED'}`,
  );
  return ok;
}
