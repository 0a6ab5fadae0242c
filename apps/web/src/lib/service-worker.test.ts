import { describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './service-worker';

function container(registrations: { unregister: () => Promise<boolean> }[]) {
  return {
    register: vi.fn().mockResolvedValue({}),
    getRegistrations: vi.fn().mockResolvedValue(registrations),
  } as unknown as ServiceWorkerContainer;
}

const answer = (status: number, type: string) =>
  vi.fn().mockResolvedValue(new Response('x', { status, headers: { 'content-type': type } }));

describe('registerServiceWorker', () => {
  it('registers the worker when its script is served as JavaScript', async () => {
    const c = container([]);
    expect(await registerServiceWorker(c, answer(200, 'application/javascript; charset=utf-8'))).toEqual({ ok: true });
    expect(c.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it.each([
    [answer(404, 'application/json'), /missing \(HTTP 404\)/],
    [answer(200, 'text/html; charset=utf-8'), /served as "text\/html; charset=utf-8", not JavaScript/],
  ])('reports a missing or mistyped script and unregisters the old worker', async (fetcher, problem) => {
    const unregister = vi.fn().mockResolvedValue(true);
    const c = container([{ unregister }]);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result = await registerServiceWorker(c, fetcher);
    expect(result.ok).toBe(false);
    expect(error.mock.calls[0]?.[0]).toMatch(problem);
    expect(unregister).toHaveBeenCalled();
    expect(c.register).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
