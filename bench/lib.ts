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

/**
 * Runs the measurements in alternating rounds and keeps each one's best. On a shared machine a
 * passing load lowers whichever figure is being taken at that moment; alternating and keeping the
 * best compares the two at their least disturbed.
 */
export async function alternate<K extends string>(
  rounds: number,
  measurements: Record<K, () => Promise<number>>,
): Promise<Record<K, number>> {
  const best = {} as Record<K, number>;
  for (let r = 0; r < rounds; r++) {
    for (const key of Object.keys(measurements) as K[]) {
      const value = await measurements[key]();
      best[key] = Math.max(best[key] ?? 0, value);
    }
  }
  return best;
}
