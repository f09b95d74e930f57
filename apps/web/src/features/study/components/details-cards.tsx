import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { StudyDetailField, StudyDetailsResponse } from '@accord/contracts';
import { formatValue } from '../utils/format-value.ts';

type Details = StudyDetailsResponse['details'];

/** The metadata cards; the four methodological groups share one card, the verified flag is a badge. */
const CARDS: { title: string; groups: (keyof Details)[] }[] = [
  { title: 'Study Info', groups: ['study_info'] },
  { title: 'Product Categorization', groups: ['product_categorization'] },
  { title: 'Geography', groups: ['geography'] },
  {
    title: 'Methodological Details',
    groups: [
      'methodological_details_1',
      'methodological_details_2',
      'methodological_details_3',
      'methodological_details_4',
    ],
  },
];

function fieldsOf(details: Details, groups: (keyof Details)[]): [string, StudyDetailField][] {
  return groups.flatMap((group) => Object.entries(details[group]));
}

/** Grouped study metadata (document 2 section 3, Study details): each field's label and value. */
export function DetailsCards({ details }: { details: Details }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
      {CARDS.map((card) => (
        <Card
          key={card.title}
          withBorder
          radius="md"
          padding="md"
          component="section"
          aria-label={card.title}
        >
          <Title order={2} fz="md" mb="sm">
            {card.title}
          </Title>
          <Stack gap="xs" component="dl" m={0}>
            {fieldsOf(details, card.groups).map(([field, entry]) => (
              <div key={field}>
                <Text component="dt" size="xs" c="dimmed" fw={600} tt="uppercase">
                  {entry.label}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {formatValue(entry.value)}
                </Text>
              </div>
            ))}
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
