import {
  ActionIcon,
  Anchor,
  Button,
  Collapse,
  Drawer,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import type { SavedSearch } from '@accord/contracts';
import { IconCloud, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { PAGE_TOOLS_ID } from '../layout/page-tools.ts';
import { formatDateTime } from '../../lib/format.ts';

/** One line of a saved search's summary: a non-empty filter and its value. */
export interface SavedSearchSummaryLine {
  id: string;
  label: string;
  value: string;
}

/**
 * The cloud tab that opens the saved-searches panel: on the right edge of wide screens; on a phone,
 * where a tab on the edge would cover the tables, a button at the top of the page (the layout's page
 * tools slot).
 */
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
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  // The slot is the layout's, in the page already when this screen has mounted.
  useEffect(() => setSlot(document.getElementById(PAGE_TOOLS_ID)), []);
  const tab = (
    <UnstyledButton
      onClick={onToggle}
      aria-expanded={opened}
      aria-controls={panelId}
      aria-label={title}
      className="accord-saved-tab"
    >
      <IconCloud size={18} aria-hidden="true" />
      {title}
    </UnstyledButton>
  );
  return slot ? createPortal(tab, slot) : tab;
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
  // Deleting cannot be undone: the user confirms it first.
  const [confirming, setConfirming] = useState<SavedSearch | null>(null);
  return (
    <>
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
          <Loader size="sm" role="status" aria-label={`Loading ${title.toLowerCase()}`} />
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
                onDelete={setConfirming}
                deleting={deletingId === search.id}
              />
            ))}
          </Stack>
        )}
      </Drawer>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Delete saved search?"
        centered
        // Above the panel it is opened from.
        zIndex={300}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Delete the saved search &quot;{confirming?.slug}&quot;? This cannot be undone.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirming(null)}>
            Cancel
          </Button>
          <Button
            color="red.9"
            onClick={() => {
              if (confirming) onDelete(confirming);
              setConfirming(null);
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </>
  );
}
