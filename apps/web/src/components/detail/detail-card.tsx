/**
 * The pieces of a detail page (a fragrance, a concept, one fragrance across its tests): a titled
 * card section, labelled for screen readers by its heading, and a labelled fact inside it.
 */
import { Card, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card with a level-2 heading; `id` makes the heading's id and labels the section. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={`${id}-title`}>
      <Title order={2} fz="lg" mb="sm" id={`${id}-title`}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** A small dimmed label over its value (long values wrap anywhere). */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}
