import { onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { Code } from '@till/protocol';
import { ApiError } from './api-error';
import { createQueryClient } from './query-client';

afterEach(() => onlineManager.setOnline(true));

describe('back online', () => {
  it("the app's query client fetches a query that failed while the connection was gone again, without a retry press", async () => {
    const client = createQueryClient();
    // As QueryClientProvider does: the client listens to the browser's online events.
    client.mount();
    let reachable = false;
    let calls = 0;
    const observer = new QueryObserver(client, {
      queryKey: ['thing'],
      retry: false,
      queryFn: async () => {
        calls += 1;
        if (!reachable) throw new ApiError({ code: Code.NetworkError, reason: 'network' } as never);
        return 'fresh';
      },
    });
    const stopObserving = observer.subscribe(() => undefined);
    await expect.poll(() => observer.getCurrentResult().status).toBe('error');
    onlineManager.setOnline(false);
    reachable = true;
    onlineManager.setOnline(true);
    await expect.poll(() => observer.getCurrentResult().data).toBe('fresh');
    expect(calls).toBeGreaterThanOrEqual(2);
    stopObserving();
    client.unmount();
    client.clear();
  });
});
