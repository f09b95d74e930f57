import { Button, Collapse, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import type { FilterTag } from '../utils/filters.ts';
import {
  ConceptFields,
  EssentialsFields,
  FragranceFields,
  MethodologyFields,
  type FilterFieldsProps,
} from './filter-fields.tsx';
import { FilterTags } from './filter-tags.tsx';

const PANEL_ID = 'search-filter-panel';

/**
 * The collapsible filter card: tabs Essentials, Fragrance Details, Concept Details (admins only) and
 * Methodology; the chosen filters stay visible as tags when the card is collapsed.
 */
export function FilterCard({
  expanded,
  onToggle,
  tags,
  onRemoveTag,
  loadingOptions,
  ...fields
}: FilterFieldsProps & {
  expanded: boolean;
  onToggle: () => void;
  tags: FilterTag[];
  onRemoveTag: (tag: FilterTag) => void;
  loadingOptions: boolean;
}) {
  const [tab, setTab] = useState<string | null>('essentials');
  const perfumerMemory = useRef('');
  const activeTab = !fields.isAdmin && tab === 'concept' ? 'essentials' : tab;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby="filter-title"
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs">
          <Title order={2} size="h4" id="filter-title">
            Search criteria
          </Title>
          {loadingOptions ? (
            <Text size="xs" c="dimmed" role="status">
              Updating options…
            </Text>
          ) : null}
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={PANEL_ID}
          rightSection={
            expanded ? (
              <IconChevronUp size={16} aria-hidden="true" />
            ) : (
              <IconChevronDown size={16} aria-hidden="true" />
            )
          }
        >
          {expanded ? 'Hide filters' : 'Show filters'}
        </Button>
      </Group>
      <Stack gap="sm" mt="sm">
        <FilterTags tags={tags} onRemove={onRemoveTag} />
        <Collapse expanded={expanded} id={PANEL_ID} keepMounted keepMountedMode="display-none">
          <Tabs value={activeTab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="essentials">Essentials</Tabs.Tab>
              <Tabs.Tab value="fragrance">Fragrance Details</Tabs.Tab>
              {fields.isAdmin ? <Tabs.Tab value="concept">Concept Details</Tabs.Tab> : null}
              <Tabs.Tab value="methodology">Methodology</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="essentials" pt="md">
              <EssentialsFields {...fields} />
            </Tabs.Panel>
            <Tabs.Panel value="fragrance" pt="md">
              <FragranceFields {...fields} perfumerMemory={perfumerMemory} />
            </Tabs.Panel>
            {fields.isAdmin ? (
              <Tabs.Panel value="concept" pt="md">
                <ConceptFields {...fields} />
              </Tabs.Panel>
            ) : null}
            <Tabs.Panel value="methodology" pt="md">
              <MethodologyFields {...fields} />
            </Tabs.Panel>
          </Tabs>
        </Collapse>
      </Stack>
    </Paper>
  );
}
