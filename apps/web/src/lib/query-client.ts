import { QueryClient } from '@tanstack/react-query';
import { Code } from '@till/protocol';
import { codeOf } from './api-error';

/** Server state cache over the SDK; a failed call is retried once unless retrying cannot help. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
 * Marks queries stale after a change and asks for them again, dropping any answer still on its way.
 * `invalidateQueries` alone cancels a running fetch only once the query holds data: a first read
 * still on its way (sent before the change) is joined and its stale answer kept, so a list opened
 * together with the change (a provider's return spent as the profile loads) would miss it.
 */
export async function refreshAfterChange(client: QueryClient, ...queryKeys: readonly (readonly unknown[])[]) {
  await Promise.all(queryKeys.map((queryKey) => client.cancelQueries({ queryKey })));
  await Promise.all(queryKeys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
