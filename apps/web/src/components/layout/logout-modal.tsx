import { Button, Group, Modal, Text } from '@mantine/core';
import { MESSAGES } from '@accord/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { logout } from '../../lib/api/session-api.ts';

/** Logout confirmation (document 1 section 4): No keeps the session, Yes ends it and goes to login. */
export function LogoutModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    setPending(true);
    try {
      await logout();
    } catch {
      // the session on this client has ended whatever the server answered
    } finally {
      setPending(false);
      onClose();
      void navigate(paths.login.href(), { replace: true });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Log out" centered>
      <Text mb="lg">{MESSAGES.logoutConfirm}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          No
        </Button>
        <Button onClick={() => void confirm()} loading={pending}>
          Yes
        </Button>
      </Group>
    </Modal>
  );
}
