import { User } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { usersKeys } from './keys.ts';

/** GET /api/users/{id}/. */
export function getUser(id: number, signal?: AbortSignal): Promise<User> {
  return apiJson(`/users/${id}/`, User, { signal });
}

export function useUserQuery(id: number | null) {
  return useQuery({
    queryKey: usersKeys.detail(id ?? 0),
    queryFn: ({ signal }) => getUser(id ?? 0, signal),
    enabled: id !== null,
  });
}
