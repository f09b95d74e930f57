import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import { PRODUCT_NAME } from '@accord/contracts';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';

/** The product name in the top bar, linking home. */
export function Brand() {
  return (
    <UnstyledButton component={Link} to={paths.home.href()} aria-label={`${PRODUCT_NAME} home`}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon color="plum" radius="md" size={30} aria-hidden="true">
          <IconDroplet size={18} />
        </ThemeIcon>
        <Text fw={700} fz="lg" c="plum.8">
          {PRODUCT_NAME}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
