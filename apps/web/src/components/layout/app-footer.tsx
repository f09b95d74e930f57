import { ActionIcon, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import { COMPANY_NAME } from '@accord/contracts';
import { AboutModal } from './about-modal.tsx';

/** Footer: company and year, and the info button that opens the About box. */
export function AppFooter() {
  const [aboutOpened, about] = useDisclosure(false);
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} {COMPANY_NAME}
      </Text>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label="About" onClick={about.open}>
        <IconInfoCircle size={20} aria-hidden="true" />
      </ActionIcon>
      <AboutModal opened={aboutOpened} onClose={about.close} />
    </Group>
  );
}
