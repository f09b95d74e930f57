import { NavLink, ScrollArea, Stack } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { isSectionCurrent, visibleSections } from '../../config/navigation.ts';
import { useSession } from '../../lib/session.ts';

/** Sidebar entries (document 1 section 2); analytics entries only for admins or analytics users. */
export function Sidebar({ onNavigate }: { onNavigate: () => void }) {
  const { permissions } = useSession();
  const { pathname } = useLocation();
  const entries = [
    { key: 'home', label: 'Home', href: paths.home.href(), icon: IconHome },
    ...visibleSections(permissions),
  ];
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <Stack gap={2}>
        {entries.map((entry) => {
          const Icon = entry.icon;
          const active = isSectionCurrent(entry, pathname);
          return (
            <NavLink
              key={entry.key}
              component={Link}
              to={entry.href}
              label={entry.label}
              leftSection={<Icon size={20} stroke={1.6} aria-hidden="true" />}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              color="plum"
              variant="light"
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
          );
        })}
      </Stack>
    </ScrollArea>
  );
}
