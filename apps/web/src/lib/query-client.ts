import { QueryClient } from '@tanstack/react-query';
import { Code } from '@till/protocol';
import { codeOf } from './api-error';

/** Server state cache over the SDK; a failed call is retried once unless retrying cannot help. */
export function createQueryClient(): QueryClient {
  return new AppQueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Back online, what failed or went stale meanwhile is fetched again without a retry press
        // (TanStack Query's onlineManager hears the browser's online event).
        refetchOnReconnect: true,
        retry: (count, error) => {
          const code = codeOf(error);
          // Only a transport failure may go away by itself; a protocol answer will not change.
          return code === Code.NetworkError && count < 1;
        },
      },
      mutations: { retry: false },
    },
  });
}

/**
 * TanStack Query's client, with invalidation that drops every matching fetch still on its way and asks
 * again. TanStack Query's own cancels a running fetch only once the query holds data: a first read
 * sent before a change was joined and its stale answer kept, so a list opened together with the change
 * (a provider's return spent as the profile loads) missed it.
 */
export class AppQueryClient extends QueryClient {
  override async invalidateQueries(...args: Parameters<QueryClient['invalidateQueries']>): Promise<void> {
    await this.cancelQueries(args[0]);
    return super.invalidateQueries(...args);
  }
}
