import { Button, Group } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { ComponentProps, ReactNode } from 'react';
import { SaveSearchBox } from './save-search-box.tsx';

/**
 * The row above the filters of a search screen: Search, New search once a search ran, the screen's
 * own buttons, and the box that saves the filters under a name.
 */
export function SearchToolbar({
  onSearch,
  onNewSearch,
  searched,
  saveBox,
  children,
}: {
  onSearch: () => void;
  onNewSearch: () => void;
  /** Whether a search ran (New search shows then). */
  searched: boolean;
  saveBox: ComponentProps<typeof SaveSearchBox>;
  /** More buttons after New search. */
  children?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
      <Group gap="sm" wrap="wrap">
        <Button leftSection={<IconSearch size={16} aria-hidden="true" />} onClick={onSearch}>
          Search
        </Button>
        {searched ? (
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={onNewSearch}
          >
            New search
          </Button>
        ) : null}
        {children}
      </Group>
      <SaveSearchBox {...saveBox} />
    </Group>
  );
}
