import { USER_PAGE_SIZE_DEFAULT, USER_PAGE_SIZES } from '@accord/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { UserListParams } from '../api/keys.ts';

function positiveInt(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

/** The user list's page, page size and search live in the URL, so a view can be shared or restored. */
export function useUserListParams() {
  const [searchParams, setSearchParams] = useSearchParams();

  const params: UserListParams = useMemo(() => {
    const perPage = positiveInt(searchParams.get('per_page'), USER_PAGE_SIZE_DEFAULT);
    return {
      page: positiveInt(searchParams.get('page'), 1),
      perPage: (USER_PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : USER_PAGE_SIZE_DEFAULT,
      search: searchParams.get('search') ?? '',
    };
  }, [searchParams]);

  const update = useCallback(
    (changes: Partial<UserListParams>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          const set = (key: string, value: string | number | undefined, omitWhen: string | number) => {
            if (value === undefined) return;
            if (value === omitWhen || value === '') next.delete(key);
            else next.set(key, String(value));
          };
          set('page', changes.page, 1);
          set('per_page', changes.perPage, USER_PAGE_SIZE_DEFAULT);
          set('search', changes.search, '');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return { params, update };
}
