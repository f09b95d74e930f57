import { Avatar, Button, Menu, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChevronDown,
  IconExternalLink,
  IconHelp,
  IconLogout,
  IconSettings,
  IconUserCircle,
  IconUsers,
} from '@tabler/icons-react';
import { helpLinkHref } from '@accord/contracts';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useHelpUrlQuery } from '../../lib/api/help-url.ts';
import { useSession } from '../../lib/session.ts';
import { LogoutModal } from './logout-modal.tsx';

function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s@.]+/)
    .filter(Boolean);
  return (parts[0]?.[0] ?? '?').toUpperCase() + (parts[1]?.[0] ?? '').toUpperCase();
}

/** The top bar's user dropdown (document 1 section 2), or a Login link when nobody is signed in. */
export function UserMenu() {
  const { user, permissions } = useSession();
  const helpUrl = useHelpUrlQuery({ enabled: user !== null });
  const [logoutOpened, logoutModal] = useDisclosure(false);

  if (!user) {
    return (
      <Button component={Link} to={paths.login.href()} variant="default">
        Login
      </Button>
    );
  }

  const helpHref = helpLinkHref(helpUrl.data?.url ?? '');
  const showSiteSettings = permissions.isAdmin || permissions.canModifyHelpUrl;
  const showUserList = permissions.isAdmin || permissions.canModifyUsers;
  const iconProps = { size: 16, 'aria-hidden': true } as const;

  return (
    <>
      <Menu position="bottom-end" width={220} shadow="md" withinPortal>
        <Menu.Target>
          <Button
            variant="subtle"
            color="gray"
            c="dark.9"
            px="xs"
            leftSection={
              <Avatar color="plum" radius="xl" size={28} aria-hidden="true">
                {initials(user.screenname)}
              </Avatar>
            }
            rightSection={<IconChevronDown {...iconProps} />}
            styles={{ label: { maxWidth: 'min(40vw, 220px)' } }}
          >
            <Text span truncate="end" fw={500} size="sm">
              {user.screenname}
            </Text>
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            component={Link}
            to={paths.editUser.href(user.id)}
            leftSection={<IconUserCircle {...iconProps} />}
          >
            Profile settings
          </Menu.Item>
          {showSiteSettings ? (
            <>
              <Menu.Divider />
              <Menu.Label>Admin panel</Menu.Label>
              <Menu.Item
                component={Link}
                to={paths.adminPanel.href()}
                leftSection={<IconSettings {...iconProps} />}
              >
                Site settings
              </Menu.Item>
            </>
          ) : null}
          {showUserList ? (
            <>
              <Menu.Divider />
              <Menu.Label>User panel</Menu.Label>
              <Menu.Item
                component={Link}
                to={paths.userList.href()}
                leftSection={<IconUsers {...iconProps} />}
              >
                User list
              </Menu.Item>
            </>
          ) : null}
          <Menu.Divider />
          {helpHref ? (
            <Menu.Item
              component="a"
              href={helpHref}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconHelp {...iconProps} />}
              rightSection={<IconExternalLink size={14} aria-hidden="true" />}
            >
              Help
            </Menu.Item>
          ) : null}
          <Menu.Item onClick={logoutModal.open} leftSection={<IconLogout {...iconProps} />}>
            Log out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <LogoutModal opened={logoutOpened} onClose={logoutModal.close} />
    </>
  );
}
