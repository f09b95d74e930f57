import { Card, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { StudyDetailField, StudyDetailsResponse } from '@accord/contracts';
import type { DetailsEdit } from '../hooks/use-details-edit.ts';
import { formatValue } from '../utils/format-value.ts';
import { DetailInput } from './details-edit-input.tsx';

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

/** The fields the cards show (the tags leave these out, so each field appears once). */
export function fieldsInCards(details: Details): Set<string> {
  return new Set(CARDS.flatMap((card) => fieldsOf(details, card.groups).map(([field]) => field)));
}

function fieldsOf(details: Details, groups: (keyof Details)[]): [string, StudyDetailField][] {
  return groups.flatMap((group) => Object.entries(details[group]));
}

function ReadField({ entry }: { entry: StudyDetailField }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={600} tt="uppercase">
        {entry.label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {formatValue(entry.value)}
      </Text>
    </div>
  );
}

/** One field in edit mode: its input, or its value when it cannot be edited. */
function EditField({ field, entry, edit }: { field: string; entry: StudyDetailField; edit: DetailsEdit }) {
  const spec = edit.fields?.find((candidate) => candidate.field === field);
  if (!spec || spec.kind === 'readonly')
    return (
      <TextInput
        label={entry.label}
        value={formatValue(entry.value)}
        readOnly
        variant="filled"
        description="Cannot be edited"
      />
    );
  return (
    <DetailInput
      field={field}
      label={entry.label}
      kind={spec.kind}
      definition={spec.definition}
      value={edit.values[field] ?? ''}
      onChange={(value) => edit.change(field, value)}
      error={edit.errors[field]}
      disabled={edit.saving}
    />
  );
}

/**
 * Grouped study metadata (document 2 section 3, Study details): each field's label and value, or in
 * edit mode (admins) its input.
 */
export function DetailsCards({ details, edit }: { details: Details; edit?: DetailsEdit }) {
  const editing = edit?.editing === true;
  return (
    // Inputs need more room than values: two columns up to extra-large screens while editing.
    <SimpleGrid cols={editing ? { base: 1, sm: 2, xl: 4 } : { base: 1, sm: 2, lg: 4 }} spacing="md">
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
          {editing && edit ? (
            <Stack gap="sm">
              {fieldsOf(details, card.groups).map(([field, entry]) => (
                <EditField key={field} field={field} entry={entry} edit={edit} />
              ))}
            </Stack>
          ) : (
            <Stack gap="xs" component="dl" m={0}>
              {fieldsOf(details, card.groups).map(([field, entry]) => (
                <ReadField key={field} entry={entry} />
              ))}
            </Stack>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
