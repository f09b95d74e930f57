import { Box, Center, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { COMPANY_NAME, PRODUCT_NAME } from '@accord/contracts';
import { Outlet } from 'react-router';

/** The frame of the screens outside the layout (login and password reset). */
export function AuthLayout() {
  return (
    <Box
      mih="100vh"
      style={{
        background:
          'linear-gradient(160deg, var(--mantine-color-plum-0) 0%, var(--mantine-color-gray-0) 60%)',
      }}
    >
      <Center mih="100vh" p="md">
        <Stack w="100%" maw={440} gap="lg">
          <header>
            <Group gap="sm" justify="center">
              <ThemeIcon color="plum" radius="md" size={40} aria-hidden="true">
                <IconDroplet size={24} />
              </ThemeIcon>
              <Text fw={700} fz={28} c="plum.8">
                {PRODUCT_NAME}
              </Text>
            </Group>
          </header>
          <main>
            <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
              <Outlet />
            </Paper>
          </main>
          <footer>
            <Text size="sm" c="dimmed" ta="center">
              © {new Date().getFullYear()} {COMPANY_NAME}
            </Text>
          </footer>
        </Stack>
      </Center>
    </Box>
  );
}
