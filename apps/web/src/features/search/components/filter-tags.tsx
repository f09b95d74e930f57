import { Group, Pill, Text } from '@mantine/core';
import type { FilterTag } from '../utils/filters.ts';

/** The chosen filters as removable tags; each removal applies that filter's own reset. */
export function FilterTags({ tags, onRemove }: { tags: FilterTag[]; onRemove: (tag: FilterTag) => void }) {
  if (tags.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No filters chosen yet.
      </Text>
    );
  }
  return (
    <Group
      gap={6}
      component="ul"
      aria-label="Chosen filters"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {tags.map((tag) => (
        <li key={tag.id} style={{ maxWidth: '100%', minWidth: 0 }}>
          <Pill
            size="md"
            withRemoveButton
            onRemove={() => onRemove(tag)}
            // Mantine hides the x from the keyboard and screen readers; the tags must be removable without a mouse.
            removeButtonProps={{
              'aria-label': `Remove filter ${tag.label}`,
              tabIndex: 0,
              'aria-hidden': false,
            }}
            styles={{ root: { maxWidth: 'min(420px, 100%)' } }}
            title={`${tag.label}: ${tag.value}`}
          >
            <Text span size="sm" fw={600}>
              {tag.label}:
            </Text>{' '}
            {tag.value}
          </Pill>
        </li>
      ))}
    </Group>
  );
}
