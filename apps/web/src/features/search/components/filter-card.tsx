import { Tabs } from '@mantine/core';
import { useRef, useState } from 'react';
import type { FilterTag } from '../utils/filters.ts';
import {
  ConceptFields,
  EssentialsFields,
  FragranceFields,
  MethodologyFields,
  type FilterFieldsProps,
} from './filter-fields.tsx';
import { FilterCardFrame } from '../../../components/filters/filter-layout.tsx';
import { FilterTags } from './filter-tags.tsx';

const PANEL_ID = 'search-filter-panel';

/**
 * The collapsible filter card: tabs Essentials, Fragrance Details, Concept Details (admins only) and
 * Methodology; the chosen filters stay visible as tags when the card is collapsed.
 */
export function FilterCard({
  onInteract,
  expanded,
  onToggle,
  tags,
  onRemoveTag,
  loadingOptions,
  ...fields
}: FilterFieldsProps & {
  /** Called when the user focuses or presses inside the card. */
  onInteract?: () => void;
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
    <FilterCardFrame
      titleId="filter-title"
      panelId={PANEL_ID}
      expanded={expanded}
      onToggle={onToggle}
      loadingOptions={loadingOptions}
      summary={<FilterTags tags={tags} onRemove={onRemoveTag} />}
    >
      <Tabs value={activeTab} onChange={setTab} onFocusCapture={onInteract} onPointerDownCapture={onInteract}>
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
    </FilterCardFrame>
  );
}
