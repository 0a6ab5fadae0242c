const WORKER_URL = '/sw.js';

/** What the check of the worker script found. */
export type WorkerCheck = { ok: true } | { ok: false; problem: string };

/**
 * Whether the worker script is really there and served as JavaScript. A missing script (the SPA
 * fallback answering HTML) or a wrong content type would make registration fail or, worse, keep an
 * old worker serving a stale shell.
 */
export async function checkWorkerScript(fetcher: typeof fetch = fetch, url = WORKER_URL): Promise<WorkerCheck> {
  let res: Response;
  try {
    res = await fetcher(url, { cache: 'no-store' });
  } catch {
    // Offline: the installed worker keeps serving the shell; nothing to report.
    return { ok: true };
  }
  if (!res.ok) return { ok: false, problem: `the worker script ${url} is missing (HTTP ${res.status})` };
  const type = res.headers.get('content-type') ?? '';
  if (!/javascript|ecmascript/i.test(type)) {
    return { ok: false, problem: `the worker script ${url} is served as "${type || 'no type'}", not JavaScript` };
  }
  return { ok: true };
}

/**
 * Registers the worker that caches the app shell, after checking the script. When the check fails
 * the problem is reported and any worker already installed is unregistered.
 */
export async function registerServiceWorker(
  container: ServiceWorkerContainer | undefined = navigator.serviceWorker,
  fetcher: typeof fetch = fetch,
): Promise<WorkerCheck> {
  if (!container) return { ok: false, problem: 'this browser has no service workers' };
  const check = await checkWorkerScript(fetcher);
  if (!check.ok) {
    console.error(`Till: offline support is off: ${check.problem}.`);
    const registrations = await container.getRegistrations();
    await Promise.all(registrations.map((r) => r.unregister()));
    return check;
  }
  await container.register(WORKER_URL, { scope: '/' });
  return check;
}
