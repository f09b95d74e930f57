import { AppShell, Box, Burger, Group, Loader, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { MESSAGES } from '@accord/contracts';
import { Outlet, useNavigation } from 'react-router';
import { AppFooter } from './app-footer.tsx';
import { Brand } from './brand.tsx';
import { PAGE_TOOLS_ID } from './page-tools.ts';
import { Sidebar } from './sidebar.tsx';
import { UserMenu } from './user-menu.tsx';

/** A quiet indicator while the next screen's code loads; it shows only when that takes a moment. */
function NavigationIndicator() {
  const navigation = useNavigation();
  if (navigation.state !== 'loading') return null;
  return (
    <Group
      gap="xs"
      role="status"
      pos="fixed"
      bottom={60}
      right={16}
      px="sm"
      py={6}
      bg="white"
      style={{
        zIndex: 300,
        borderRadius: 8,
        boxShadow: 'var(--mantine-shadow-sm)',
        animation: 'accord-fade-in 0.2s 0.3s both',
      }}
    >
      <Loader size="xs" color="plum" aria-hidden="true" />
      <Text size="sm">{MESSAGES.loaderNext}</Text>
    </Group>
  );
}

/**
 * The signed-in layout: top bar, collapsible sidebar, main area and footer. The sidebar starts open
 * beside the page on wide screens; below the breakpoint it would cover the whole page, so it starts
 * closed there and the burger opens it.
 */
export function AppLayout() {
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }}
      footer={{ height: 48 }}
      padding={{ base: 'md', sm: 'lg' }}
    >
      <a href="#main-content" className="accord-skip-link">
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={mobileOpened}
              onClick={mobile.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={mobileOpened}
              aria-controls="main-navigation"
            />
            <Burger
              opened={desktopOpened}
              onClick={desktop.toggle}
              visibleFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
              aria-expanded={desktopOpened}
              aria-controls="main-navigation"
            />
            <Brand />
          </Group>
          <UserMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" id="main-navigation" aria-label="Main navigation">
        <Sidebar onNavigate={mobile.close} />
      </AppShell.Navbar>
      <AppShell.Main bg="gray.0" id="main-content" tabIndex={-1} style={{ outline: 'none' }}>
        <Box maw={1400} mx="auto">
          <div id={PAGE_TOOLS_ID} className="accord-page-tools" />
          <Outlet />
        </Box>
        <NavigationIndicator />
      </AppShell.Main>
      <AppShell.Footer>
        <AppFooter />
      </AppShell.Footer>
    </AppShell>
  );
}
