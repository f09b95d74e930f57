import { ActionIcon, Badge, Box, Group, Paper, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { User } from '@accord/contracts';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';

function StatusBadge({ user }: { user: User }) {
  if (user.deleted) return <Badge color="red">Removed</Badge>;
  return user.status === 'enabled' ? (
    <Badge color="green">Enabled</Badge>
  ) : (
    <Badge color="gray">Disabled</Badge>
  );
}

function UserActions({ user, onRemove }: { user: User; onRemove: (user: User) => void }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="View" withArrow>
        <ActionIcon
          component={Link}
          to={paths.userPage.href(user.id)}
          variant="subtle"
          color="gray"
          aria-label={`View ${user.email}`}
        >
          <IconEye size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Edit" withArrow>
        <ActionIcon
          component={Link}
          to={paths.editUser.href(user.id)}
          variant="subtle"
          color="gray"
          aria-label={`Edit ${user.email}`}
        >
          <IconPencil size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Remove" withArrow>
        <ActionIcon
          variant="subtle"
          color="red.9"
          aria-label={`Remove ${user.email}`}
          onClick={() => onRemove(user)}
          disabled={user.deleted}
        >
          <IconTrash size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function fullName(user: User): string {
  return `${user.firstname} ${user.lastname}`.trim();
}

/** Narrow screens: one card per user instead of a table that would need sideways scrolling. */
function UserCards({ users, onRemove }: { users: User[]; onRemove: (user: User) => void }) {
  if (users.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        No users found.
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Users">
      {users.map((user) => (
        <Paper key={user.id} withBorder p="sm" radius="md" component="li">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Box style={{ minWidth: 0 }}>
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {user.email}
              </Text>
              {fullName(user) ? (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {fullName(user)}
                </Text>
              ) : null}
            </Box>
            <Box style={{ flexShrink: 0 }}>
              <StatusBadge user={user} />
            </Box>
          </Group>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} mt="xs" mb={0} component="dl">
            {[
              ['Role', user.role.name],
              ['Date registered', formatDate(user.created_at)],
              ['Last seen', formatDateTime(user.last_seen, 'Never')],
            ].map(([label, value]) => (
              <Box key={label}>
                <Text component="dt" size="xs" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" size="sm" m={0}>
                  {value}
                </Text>
              </Box>
            ))}
          </SimpleGrid>
          <Box mt={4}>
            <UserActions user={user} onRemove={onRemove} />
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}

/** The user list: a table (Username, Date registered, Last seen, Role, Status, Actions), cards on phones. */
export function UserTable({
  users,
  onRemove,
  busy,
}: {
  users: User[];
  onRemove: (user: User) => void;
  busy: boolean;
}) {
  return (
    <>
      <Box hiddenFrom="sm">
        <UserCards users={users} onRemove={onRemove} />
      </Box>
      <Box visibleFrom="sm">
        <UserRows users={users} onRemove={onRemove} busy={busy} />
      </Box>
    </>
  );
}

function UserRows({
  users,
  onRemove,
  busy,
}: {
  users: User[];
  onRemove: (user: User) => void;
  busy: boolean;
}) {
  return (
    <Table.ScrollContainer minWidth={780}>
      <Table verticalSpacing="sm" highlightOnHover aria-busy={busy} aria-label="Users">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Username</Table.Th>
            <Table.Th>Date registered</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={6}>
                <Text c="dimmed" ta="center" py="lg">
                  No users found.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            users.map((user) => {
              const name = fullName(user);
              return (
                <Table.Tr key={user.id}>
                  <Table.Td maw={320}>
                    <Stack gap={0}>
                      <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {user.email}
                      </Text>
                      {name ? (
                        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {name}
                        </Text>
                      ) : null}
                    </Stack>
                  </Table.Td>
                  <Table.Td>{formatDate(user.created_at)}</Table.Td>
                  <Table.Td>{formatDateTime(user.last_seen, 'Never')}</Table.Td>
                  <Table.Td>{user.role.name}</Table.Td>
                  <Table.Td>
                    <StatusBadge user={user} />
                  </Table.Td>
                  <Table.Td>
                    <UserActions user={user} onRemove={onRemove} />
                  </Table.Td>
                </Table.Tr>
              );
            })
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
