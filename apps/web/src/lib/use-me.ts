import { useQuery } from '@tanstack/react-query';
import { unwrap } from './api-error';
import { useTill } from './till';

export const meKey = ['me'] as const;

/** The signed-in user, fresh from the server (balance, level, pending e-mail). */
export function useMe(enabled = true) {
  const till = useTill();
  return useQuery({
    queryKey: meKey,
    queryFn: async () => unwrap(await till.api.getUserInfo()).user,
    enabled,
  });
}
