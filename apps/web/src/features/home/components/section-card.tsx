import { Anchor, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Section } from '../../../config/navigation.ts';

/**
 * One home card (document 1 section 1): icon, header, content text and a link; an inactive card
 * says "(Inactive)" and its link is disabled.
 */
export function SectionCard({ section }: { section: Section }) {
  const Icon = section.icon;
  const headingId = `card-${section.key}`;
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={headingId} h="100%">
      <Stack gap="sm" h="100%">
        <Group gap="sm" wrap="nowrap" align="center">
          <ThemeIcon
            size={44}
            radius="md"
            variant="light"
            color={section.active ? 'plum' : 'gray'}
            aria-hidden="true"
          >
            <Icon size={26} stroke={1.6} />
          </ThemeIcon>
          <Title order={2} fz="lg" id={headingId}>
            {section.label}
            {section.active ? null : (
              <Text span c="dimmed" fz="sm" fw={400} ml={6}>
                (Inactive)
              </Text>
            )}
          </Title>
        </Group>
        <Text c="dimmed" style={{ flex: 1 }}>
          {section.description}
        </Text>
        {section.active ? (
          <Anchor component={Link} to={section.href} fw={600} aria-label={`Open ${section.label}`}>
            <Group gap={4} component="span">
              Open
              <IconArrowRight size={16} aria-hidden="true" />
            </Group>
          </Anchor>
        ) : (
          <Text c="dimmed" fw={600} aria-disabled="true" role="link">
            Open
          </Text>
        )}
      </Stack>
    </Card>
  );
}
