import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { StudyDetailsResponse, StudyTag, StudyTagDefinition } from '@accord/contracts';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { isEmptyValue, splitRegions } from '../utils/details-edit.ts';
import { AddInfoModal, AddTagModal } from './add-tag-modal.tsx';

type TagGroups = StudyDetailsResponse['tags'];
type TagGroup = keyof TagGroups;

export const TAG_GROUP_TITLES: Record<TagGroup, string> = {
  geography: 'Geography',
  categorization: 'Categorization',
  methodology: 'Methodology',
};

/** A tag's values as badges: lists item by item, a region text split at its commas. */
function tagValues(tag: StudyTag): string[] {
  const value = tag.value;
  if (Array.isArray(value) || (tag.field === 'region' && typeof value === 'string'))
    return splitRegions(value);
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  return value === null ? [] : [String(value)];
}

/** Free-text tags (base, panel profile, objectives) read as sentences, not as option badges. */
const isFreeText = (tag: StudyTag) => tag.type === 'string' && !Array.isArray(tag.value);

function TagGroupCard({
  group,
  tags,
  shownAbove,
  canAdd,
  addDisabled,
  onAddInfo,
}: {
  group: TagGroup;
  tags: StudyTag[];
  shownAbove: ReadonlySet<string>;
  canAdd: boolean;
  addDisabled: boolean;
  onAddInfo: () => void;
}) {
  const title = TAG_GROUP_TITLES[group];
  // A field the detail cards show is not repeated here: each field appears once on the page.
  const filled = tags.filter((tag) => !isEmptyValue(tag.value) && !shownAbove.has(tag.field));
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={`${title} tags`}>
      <Group justify="space-between" align="center" gap="xs" mb="sm" wrap="nowrap">
        <Title order={3} fz="md">
          {title}
        </Title>
        {canAdd ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden="true" />}
            onClick={onAddInfo}
            disabled={addDisabled}
            aria-label={`Add info: ${title}`}
          >
            Add info
          </Button>
        ) : null}
      </Group>
      {filled.length === 0 ? (
        <Text size="sm" c="dimmed">
          {tags.some((tag) => shownAbove.has(tag.field))
            ? `No other ${title.toLowerCase()} tags; the rest are in the cards above.`
            : `No ${title.toLowerCase()} tags yet.`}
        </Text>
      ) : (
        <Stack gap="xs" component="dl" m={0}>
          {filled.map((tag) => (
            <div key={tag.field}>
              <Text component="dt" size="xs" c="dimmed" fw={600} tt="uppercase">
                {tag.label}
              </Text>
              {isFreeText(tag) ? (
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {tagValues(tag).join(', ')}
                </Text>
              ) : (
                <Group component="dd" gap={6} m={0} mt={2}>
                  {tagValues(tag).map((item) => (
                    <Badge key={item} variant="light" color="gray" tt="none" fw={500} maw="100%">
                      {item}
                    </Badge>
                  ))}
                </Group>
              )}
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}

/**
 * The study's tags in their groups (geography, categorization, methodology), without the fields the
 * detail cards show. Admins add a value to
 * an empty tag through 'Add info' (only the empty fields) and then 'Add tag'.
 */
export function StudyTags({
  studyId,
  tags,
  shownAbove,
  definitions,
  canAdd,
  addDisabled,
}: {
  studyId: number;
  tags: TagGroups;
  /** Fields the detail cards show already: listed there only ('Add info' still offers them when empty). */
  shownAbove: ReadonlySet<string>;
  /** Tag definitions (admins); without them nothing can be added. */
  definitions: readonly StudyTagDefinition[] | undefined;
  canAdd: boolean;
  /** While the details are being edited, tags wait. */
  addDisabled: boolean;
}) {
  const [adding, setAdding] = useState<TagGroup | null>(null);
  const [tag, setTag] = useState<StudyTag | null>(null);
  const definitionOf = (field: string) => definitions?.find((definition) => definition.field === field);
  const emptyTags = (group: TagGroup) =>
    tags[group].filter((entry) => entry.editable && isEmptyValue(entry.value) && definitionOf(entry.field));

  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {(Object.keys(TAG_GROUP_TITLES) as TagGroup[]).map((group) => (
          <TagGroupCard
            key={group}
            group={group}
            tags={tags[group]}
            shownAbove={shownAbove}
            canAdd={canAdd}
            addDisabled={addDisabled || !definitions}
            onAddInfo={() => setAdding(group)}
          />
        ))}
      </SimpleGrid>
      {canAdd ? (
        <>
          <AddInfoModal
            title={adding ? TAG_GROUP_TITLES[adding] : ''}
            tags={adding ? emptyTags(adding) : []}
            opened={adding !== null}
            onClose={() => setAdding(null)}
            onPick={(picked) => {
              setAdding(null);
              setTag(picked);
            }}
          />
          <AddTagModal
            studyId={studyId}
            tag={tag}
            definition={tag ? definitionOf(tag.field) : undefined}
            labelOf={(field) => definitionOf(field)?.label ?? field}
            onClose={() => setTag(null)}
          />
        </>
      ) : null}
    </>
  );
}
