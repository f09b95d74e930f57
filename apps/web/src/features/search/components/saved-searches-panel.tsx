import {
  ActionIcon,
  Anchor,
  Button,
  Collapse,
  Drawer,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import type { SavedSearch } from '@accord/contracts';
import { IconCloud, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { compactFilters, filterTags, parseFiltersText, type YearRange } from '../utils/filters.ts';

/** The cloud tab on the right edge that opens the saved-searches panel. */
export function SavedSearchesTab({ opened, onToggle }: { opened: boolean; onToggle: () => void }) {
  return (
    <UnstyledButton
      onClick={onToggle}
      aria-expanded={opened}
      aria-controls="saved-searches-panel"
      aria-label="Saved Searches"
      style={{
        position: 'fixed',
        right: 0,
        top: 140,
        zIndex: 99,
        writingMode: 'vertical-rl',
        padding: '14px 8px',
        borderRadius: '8px 0 0 8px',
        background: 'var(--mantine-color-plum-8)',
        color: 'var(--mantine-color-white)',
        boxShadow: 'var(--mantine-shadow-md)',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        fontSize: 14,
        fontWeight: 600,
      }}
    >
      <IconCloud size={18} aria-hidden="true" style={{ transform: 'rotate(90deg)' }} />
      Saved Searches
    </UnstyledButton>
  );
}

function SavedSearchItem({
  search,
  years,
  isAdmin,
  onApply,
  onDelete,
  deleting,
}: {
  search: SavedSearch;
  years: YearRange | null;
  isAdmin: boolean;
  onApply: (search: SavedSearch) => void;
  onDelete: (search: SavedSearch) => void;
  deleting: boolean;
}) {
  const [open, setOpen] = useState(false);
  const tags = filterTags(compactFilters(parseFiltersText(search.metadata_query), { isAdmin, years }), years);
  const summaryId = `saved-search-summary-${search.id}`;
  return (
    <Paper withBorder radius="md" p="sm" component="li">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {search.slug}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(search.created_at)}
          </Text>
        </Stack>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete saved search ${search.slug}`}
          onClick={() => onDelete(search)}
          loading={deleting}
        >
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
      <Group justify="space-between" mt="xs">
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={summaryId}
        >
          {open ? 'Hide filters' : `Show filters (${tags.length})`}
        </Anchor>
        <Button
          size="compact-sm"
          onClick={() => onApply(search)}
          aria-label={`Apply saved search ${search.slug}`}
        >
          Apply
        </Button>
      </Group>
      <Collapse expanded={open} id={summaryId}>
        <List size="sm" mt="xs" spacing={2}>
          {tags.map((tag) => (
            <List.Item key={tag.id}>
              <Text span fw={600} size="sm">
                {tag.label}:
              </Text>{' '}
              {tag.value}
            </List.Item>
          ))}
        </List>
      </Collapse>
    </Paper>
  );
}

/** The saved-searches side panel: the user's searches with date, summary, apply and delete. */
export function SavedSearchesPanel({
  opened,
  onClose,
  searches,
  loading,
  years,
  isAdmin,
  onApply,
  onDelete,
  deletingId,
}: {
  opened: boolean;
  onClose: () => void;
  searches: SavedSearch[] | undefined;
  loading: boolean;
  years: YearRange | null;
  isAdmin: boolean;
  onApply: (search: SavedSearch) => void;
  onDelete: (search: SavedSearch) => void;
  deletingId: number | null;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title="Saved Searches"
      size="sm"
      id="saved-searches-panel"
      closeButtonProps={{ 'aria-label': 'Close saved searches' }}
    >
      {loading ? (
        <Loader size="sm" aria-label="Loading saved searches" />
      ) : !searches || searches.length === 0 ? (
        <Text c="dimmed" size="sm">
          No saved searches yet. Choose filters and save them with the cloud button.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {searches.map((search) => (
            <SavedSearchItem
              key={search.id}
              search={search}
              years={years}
              isAdmin={isAdmin}
              onApply={onApply}
              onDelete={onDelete}
              deleting={deletingId === search.id}
            />
          ))}
        </Stack>
      )}
    </Drawer>
  );
}
