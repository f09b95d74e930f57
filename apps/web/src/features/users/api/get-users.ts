import { UserList, type PageInfo, type User } from '@accord/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJsonWithHeaders } from '../../../lib/api-client.ts';
import { pageInfoFromHeaders } from '../../../lib/pagination.ts';
import { usersKeys, type UserListParams } from './keys.ts';

export interface UserPage {
  users: User[];
  pageInfo: PageInfo;
}

/** GET /api/users/?page&per_page&search_query; the pagination info comes in the headers. */
export async function getUsers(params: UserListParams, signal?: AbortSignal): Promise<UserPage> {
  const { data, headers } = await apiJsonWithHeaders('/users/', UserList, {
    query: { page: params.page, per_page: params.perPage, search_query: params.search || undefined },
    signal,
  });
  return {
    users: data,
    pageInfo: pageInfoFromHeaders(headers, {
      page: params.page,
      perPage: params.perPage,
      count: data.length,
    }),
  };
}

/** Keeps the previous page on screen while the next one loads. */
export function useUsersQuery(params: UserListParams) {
  return useQuery({
    queryKey: usersKeys.list(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });
}
