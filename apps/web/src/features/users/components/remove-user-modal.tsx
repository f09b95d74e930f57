import { Button, Group, Modal, Text } from '@mantine/core';
import { MESSAGES, type User } from '@accord/contracts';

/** Removal confirmation (document 1 section 2): Close keeps the user, Remove marks it deleted. */
export function RemoveUserModal({
  user,
  removing,
  onClose,
  onConfirm,
}: {
  user: User | null;
  removing: boolean;
  onClose: () => void;
  onConfirm: (user: User) => void;
}) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={MESSAGES.userRemovalTitle} centered>
      <Text mb="lg" style={{ overflowWrap: 'anywhere' }}>
        {user ? MESSAGES.userRemovalBody(user.email) : null}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          Close
        </Button>
        <Button color="red.9" loading={removing} onClick={() => user && onConfirm(user)}>
          Remove
        </Button>
      </Group>
    </Modal>
  );
}
