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
import { formatDateTime } from '../../lib/format.ts';

/** One line of a saved search's summary: a non-empty filter and its value. */
export interface SavedSearchSummaryLine {
  id: string;
  label: string;
  value: string;
}

/** The cloud tab on the right edge that opens the saved-searches panel. */
export function SavedSearchesTab({
  opened,
  onToggle,
  title = 'Saved Searches',
  panelId = 'saved-searches-panel',
}: {
  opened: boolean;
  onToggle: () => void;
  title?: string;
  panelId?: string;
}) {
  return (
    <UnstyledButton
      onClick={onToggle}
      aria-expanded={opened}
      aria-controls={panelId}
      aria-label={title}
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
      {title}
    </UnstyledButton>
  );
}

function SavedSearchItem({
  search,
  summarise,
  onApply,
  onDelete,
  deleting,
}: {
  search: SavedSearch;
  summarise: (search: SavedSearch) => SavedSearchSummaryLine[];
  onApply: (search: SavedSearch) => void;
  onDelete: (search: SavedSearch) => void;
  deleting: boolean;
}) {
  const [open, setOpen] = useState(false);
  const tags = summarise(search);
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

/**
 * The saved-searches side panel: the user's searches with date, summary of their non-empty filters,
 * apply and delete. Each screen names its panel (Saved Searches, Saved CICS) and summarises its filters.
 */
export function SavedSearchesPanel({
  opened,
  onClose,
  searches,
  loading,
  summarise,
  onApply,
  onDelete,
  deletingId,
  title = 'Saved Searches',
  panelId = 'saved-searches-panel',
}: {
  opened: boolean;
  onClose: () => void;
  searches: SavedSearch[] | undefined;
  loading: boolean;
  summarise: (search: SavedSearch) => SavedSearchSummaryLine[];
  title?: string;
  panelId?: string;
  onApply: (search: SavedSearch) => void;
  onDelete: (search: SavedSearch) => void;
  deletingId: number | null;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      title={title}
      size="sm"
      id={panelId}
      closeButtonProps={{ 'aria-label': `Close ${title.toLowerCase()}` }}
    >
      {loading ? (
        <Loader size="sm" aria-label={`Loading ${title.toLowerCase()}`} />
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
              summarise={summarise}
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
