import { Role } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../../../lib/api-client.ts';
import { usersKeys } from './keys.ts';

const RoleList = z.array(Role);

/** GET /api/users/roles/: the roles an admin can give. */
export function getRoles(signal?: AbortSignal): Promise<Role[]> {
  return apiJson('/users/roles/', RoleList, { signal });
}

export function useRolesQuery(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: usersKeys.roles(),
    queryFn: ({ signal }) => getRoles(signal),
    staleTime: 10 * 60_000,
    enabled: options.enabled ?? true,
  });
}
