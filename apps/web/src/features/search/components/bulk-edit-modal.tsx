import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, TagsInput, Text } from '@mantine/core';
import type { FieldDefinition } from '@accord/contracts';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { useBulkEditStudiesMutation } from '../api/bulk-edit-studies.ts';

export const FILL_ALL_ROWS_MESSAGE = 'Please fill all the form rows to save data';

interface EditRow {
  id: number;
  field: string | null;
  values: string[];
}

let nextRowId = 1;
const newRow = (): EditRow => ({ id: nextRowId++, field: null, values: [] });

/**
 * The edit-studies popup: rows of a categorical field and its new values (new entries allowed).
 * The first row offers add, the others delete. Product type values follow the chosen categories.
 */
export function BulkEditModal({
  studyIds,
  fields,
  onClose,
}: {
  studyIds: number[] | null;
  /** Categorical, editable metadata fields (from GET /smartsearch/fields). */
  fields: FieldDefinition[];
  onClose: () => void;
}) {
  const opened = studyIds !== null && studyIds.length > 0;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={studyIds && studyIds.length === 1 ? 'Edit 1 study' : `Edit ${studyIds?.length ?? 0} studies`}
      size="lg"
      centered
    >
      {opened ? <BulkEditForm studyIds={studyIds} fields={fields} onClose={onClose} /> : null}
    </Modal>
  );
}

function BulkEditForm({
  studyIds,
  fields,
  onClose,
}: {
  studyIds: number[];
  fields: FieldDefinition[];
  onClose: () => void;
}) {
  const [rows, setRows] = useState<EditRow[]>(() => [newRow()]);
  const [error, setError] = useState<string | null>(null);
  const save = useBulkEditStudiesMutation();

  const update = (id: number, change: Partial<EditRow>) => {
    setError(null);
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));
  };
  const chosenCategories = rows.find((row) => row.field === 'category')?.values ?? [];

  const suggestionsOf = (field: string | null): string[] => {
    const definition = fields.find((candidate) => candidate.field === field);
    if (!definition) return [];
    let options = definition.options;
    if (field === 'product_type' && chosenCategories.length > 0) {
      options = options.filter((option) => option.parent && chosenCategories.includes(option.parent));
    }
    return [...new Set(options.map((option) => option.value))];
  };

  const submit = () => {
    if ((rows.length > 1 && !rows[0]?.field) || rows.some((row) => !row.field)) {
      setError(FILL_ALL_ROWS_MESSAGE);
      return;
    }
    const data = rows.map((row) => ({ key: row.field ?? '', value: row.values }));
    save.mutate(
      { studies: studyIds, data },
      {
        onSuccess: (answer) => {
          showAlert('success', answer.message);
          onClose();
        },
        onError: (cause) => {
          setError(
            cause instanceof ApiError ? cause.message : 'Something went wrong, please try again later.',
          );
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        The values you enter replace the current values of the chosen fields on every selected study.
      </Text>
      {rows.map((row, index) => {
        const taken = new Set(rows.filter((other) => other.id !== row.id).map((other) => other.field));
        const definition = fields.find((candidate) => candidate.field === row.field);
        return (
          <Group key={row.id} align="flex-end" gap="sm" wrap="wrap">
            <Select
              label="Field"
              aria-label={`Field of row ${index + 1}`}
              placeholder="Choose a field"
              data={fields
                .filter((field) => !taken.has(field.field))
                .map((field) => ({ value: field.field, label: field.label }))}
              value={row.field}
              onChange={(value) => update(row.id, { field: value, values: [] })}
              searchable
              style={{ flex: '1 1 180px' }}
              comboboxProps={{ withinPortal: true }}
            />
            <TagsInput
              label="Values"
              aria-label={`Values of row ${index + 1}`}
              placeholder={row.field ? 'Choose or type a value' : 'Choose a field first'}
              disabled={!row.field}
              data={suggestionsOf(row.field)}
              value={row.values}
              onChange={(values) => update(row.id, { values })}
              maxTags={definition && !definition.multivalue ? 1 : undefined}
              clearable
              style={{ flex: '2 1 220px', minWidth: 0 }}
              comboboxProps={{ withinPortal: true }}
            />
            {index === 0 ? (
              <ActionIcon
                variant="light"
                size="lg"
                aria-label="Add row"
                onClick={() => setRows((current) => [...current, newRow()])}
                disabled={rows.length >= fields.length}
              >
                <IconPlus size={18} aria-hidden="true" />
              </ActionIcon>
            ) : (
              <ActionIcon
                variant="light"
                color="red"
                size="lg"
                aria-label={`Delete row ${index + 1}`}
                onClick={() => setRows((current) => current.filter((other) => other.id !== row.id))}
              >
                <IconTrash size={18} aria-hidden="true" />
              </ActionIcon>
            )}
          </Group>
        );
      })}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
