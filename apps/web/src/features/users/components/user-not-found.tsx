import { Alert, Skeleton, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

export function UserLoading() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading user">
      <Skeleton height={40} />
      <Skeleton height={40} />
      <Skeleton height={40} />
    </Stack>
  );
}

export function UserNotFound() {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />} role="alert" title="User not found">
      This user does not exist or could not be loaded.
    </Alert>
  );
}
