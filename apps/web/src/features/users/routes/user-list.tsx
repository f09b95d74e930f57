import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { Button, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { ALERT_CONFIRM_MS, USER_PAGE_SIZES, USER_SEARCH_DEBOUNCE_MS, type User } from '@accord/contracts';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useUsersQuery } from '../api/get-users.ts';
import { useUpdateUserMutation } from '../api/update-user.ts';
import { RemoveUserModal } from '../components/remove-user-modal.tsx';
import { UserPagination } from '../components/user-pagination.tsx';
import { UserTable } from '../components/user-table.tsx';
import { useUserListParams } from '../hooks/use-user-list-params.ts';
import { removalPayload } from '../utils/user-form-values.ts';

const PAGE_SIZE_OPTIONS = USER_PAGE_SIZES.map((size) => String(size));

/** Route module of /users: user administration (admin only). */
export function Component() {
  const { params, update } = useUserListParams();
  const [searchInput, setSearchInput] = useState(params.search);
  const applySearch = useDebouncedCallback(
    (search: string) => update({ search: search.trim(), page: 1 }),
    USER_SEARCH_DEBOUNCE_MS,
  );
  const [removing, setRemoving] = useState<User | null>(null);
  const users = useUsersQuery(params);
  const removal = useUpdateUserMutation();

  const pageInfo = users.data?.pageInfo;
  useEffect(() => {
    if (pageInfo && pageInfo.total > 0 && params.page > pageInfo.pages) update({ page: pageInfo.pages });
  }, [pageInfo, params.page, update]);

  const confirmRemoval = (user: User) => {
    removal.mutate(
      { id: user.id, body: removalPayload(user), formHandlesErrors: false },
      {
        onSuccess: () => {
          setRemoving(null);
          notifications.show({
            color: 'green',
            message: `User "${user.email}" was removed.`,
            autoClose: ALERT_CONFIRM_MS,
          });
        },
        onError: (error) => {
          setRemoving(null);
          // Failures of removal are only logged (document 1 section 8); 400 and 503 raise the global box.
          console.error('Removing the user failed', error);
        },
      },
    );
  };

  const from = pageInfo && pageInfo.total > 0 ? (pageInfo.page - 1) * pageInfo.per_page + 1 : 0;
  const to = pageInfo ? Math.min(pageInfo.total, from + (users.data?.users.length ?? 0) - 1) : 0;

  return (
    <>
      <PageHeader
        title={paths.userList.title}
        breadcrumbs={[
          { label: 'Home', href: paths.home.href() },
          { label: 'User panel' },
          { label: paths.userList.title },
        ]}
        actions={
          <Button
            component={Link}
            to={paths.addUser.href()}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            Create
          </Button>
        }
      />
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="md">
          <Group justify="space-between" align="flex-end" gap="sm">
            <TextInput
              label="Search users"
              placeholder="Name or e-mail"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              rightSection={
                users.isFetching ? <Loader size="xs" role="status" aria-label="Searching" /> : null
              }
              value={searchInput}
              {...textLimit(searchInput, TEXT_LIMITS.userSearch)}
              onChange={(event) => {
                setSearchInput(event.currentTarget.value);
                applySearch(event.currentTarget.value);
              }}
              type="search"
              style={{ flex: '1 1 240px', maxWidth: 420 }}
            />
            <Select
              label="Rows per page"
              data={PAGE_SIZE_OPTIONS}
              value={String(params.perPage)}
              onChange={(value) => value && update({ perPage: Number(value), page: 1 })}
              allowDeselect={false}
              w={130}
            />
          </Group>
          {users.isPending ? (
            <Group justify="center" py="xl">
              <Loader color="plum" role="status" aria-label="Loading users" />
            </Group>
          ) : users.isError ? (
            <Text c="red.9" role="alert" py="md">
              The users could not be loaded. Please try again later.
            </Text>
          ) : (
            <UserTable users={users.data.users} onRemove={setRemoving} busy={users.isFetching} />
          )}
          {pageInfo ? (
            <Group justify="space-between" gap="sm">
              <Text size="sm" c="dimmed" aria-live="polite">
                {pageInfo.total === 0 ? 'No users' : `Showing ${from}–${to} of ${pageInfo.total} users`}
              </Text>
              {pageInfo.pages > 1 ? (
                <UserPagination
                  page={params.page}
                  pages={pageInfo.pages}
                  onChange={(page) => update({ page })}
                />
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </Paper>
      <RemoveUserModal
        user={removing}
        removing={removal.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={confirmRemoval}
      />
    </>
  );
}
