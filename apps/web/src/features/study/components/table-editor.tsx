import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { STUDY_MESSAGES, TEXT_LIMITS, type StudyOptionsResponse } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { IconArrowBackUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { isApiError } from '../../../lib/api-error.ts';
import { useStudyOptionsQuery } from '../api/get-study-options.ts';
import { useSaveStudyTableMutation, type StudyTableRequest } from '../api/save-study-table.ts';
import {
  buildTableRequest,
  emptyDraftRow,
  hasEdits,
  removedRows,
  toDraftRows,
  validateDraft,
  type DraftRow,
  type RowErrors,
  type TableKind,
} from '../utils/editable-rows.ts';
import { ScrollRegion } from './scroll-table.tsx';

/** Document 2 section 8: the outcome of a study edit. */
export const TABLE_SAVE_MESSAGES = {
  successTitle: 'Success!',
  success: STUDY_MESSAGES.saved,
  failure: 'There was an issue with your request, please try again later.',
  invalidTitle: 'Check the marked fields',
  invalid: 'Some rows need a value or a correction before the table can be saved.',
} as const;

/** Toasts and error notices stay 5 s (document 2 section 9). */
const NOTICE_MS = 5000;

/** One input column of the table while it is edited. */
export interface EditableColumn<Field extends string> {
  field: Field;
  label: string;
  /** Width of the input in pixels. */
  width: number;
  /** A field whose value narrows this field's suggestions (a country by its region...). */
  parent?: Field;
  /** Shown after the value, e.g. '%'. */
  unit?: string;
  /** The most characters the save request takes for the field; a study text field's by default. */
  maxLength?: number;
}

interface Notice {
  tone: 'success' | 'error';
  title?: string;
  message: string;
  detail?: string;
}

interface Option {
  value: string;
  parent: string | null;
}

type OptionsByField = Map<string, Option[]>;

function optionsByField(
  data: StudyOptionsResponse | undefined,
  group: 'fragrance' | 'concept',
): OptionsByField {
  const map: OptionsByField = new Map();
  for (const definition of data?.[group] ?? []) {
    if (definition.options.length > 0)
      map.set(
        definition.field,
        definition.options.map((option) => ({ value: option.value, parent: option.parent })),
      );
  }
  return map;
}

/** Suggestions of a cell: those under the row's parent value when any match, else all of them. */
function suggestions(options: Option[], parentValue: string | undefined): string[] {
  const parent = parentValue?.trim().toLowerCase();
  const narrowed = parent ? options.filter((option) => option.parent?.toLowerCase() === parent) : [];
  return [...new Set((narrowed.length > 0 ? narrowed : options).map((option) => option.value))];
}

interface EditRowProps<Field extends string> {
  row: DraftRow<Field>;
  position: number;
  columns: readonly EditableColumn<Field>[];
  required: readonly Field[];
  errors: Partial<Record<Field, string>> | undefined;
  options: OptionsByField;
  disabled: boolean;
  onChange: (key: string, field: Field, value: string) => void;
  onDelete: (key: string) => void;
}

function EditRowInner<Field extends string>({
  row,
  position,
  columns,
  required,
  errors,
  options,
  disabled,
  onChange,
  onDelete,
}: EditRowProps<Field>) {
  return (
    <Table.Tr data-row-key={row.key}>
      <Table.Td style={{ verticalAlign: 'top' }}>
        <Tooltip label="Delete row" withArrow openDelay={300}>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={`Delete row ${position}`}
            data-delete-row
            disabled={disabled}
            onClick={() => onDelete(row.key)}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
      {columns.map((column) => {
        const common = {
          size: 'xs' as const,
          w: column.width,
          'aria-label': `${column.label}, row ${position}`,
          value: row.values[column.field],
          ...textLimit(row.values[column.field] ?? '', column.maxLength ?? TEXT_LIMITS.studyText),
          error: errors?.[column.field],
          required: required.includes(column.field),
          disabled,
          rightSection: column.unit ? (
            <Text size="xs" c="dimmed" aria-hidden="true">
              {column.unit}
            </Text>
          ) : undefined,
        };
        const fieldOptions = options.get(column.field);
        return (
          <Table.Td key={column.field} style={{ verticalAlign: 'top' }}>
            {fieldOptions ? (
              <Autocomplete
                {...common}
                data={suggestions(fieldOptions, column.parent ? row.values[column.parent] : undefined)}
                limit={50}
                maxDropdownHeight={260}
                comboboxProps={{ withinPortal: true }}
                onChange={(value) => onChange(row.key, column.field, value)}
              />
            ) : (
              <TextInput
                {...common}
                inputMode={column.unit === '%' ? 'decimal' : undefined}
                onChange={(event) => onChange(row.key, column.field, event.currentTarget.value)}
              />
            )}
          </Table.Td>
        );
      })}
    </Table.Tr>
  );
}

// Typing in one cell re-renders only its row.
const EditRow = memo(EditRowInner) as typeof EditRowInner;

/**
 * A study table (fragrances or concepts) with its own edit switch for admins (document 2 section
 * 4): switching on makes a working copy shown as inputs; rows can be added at the top or deleted;
 * 'Reverse changes' restores the original; switching off saves the table with PUT /study/{id}/tags
 * and the study is loaded again. The switch is disabled while the table is empty and not edited.
 */
export function TableEditor<Field extends string, Row extends { id: number } & Record<Field, unknown>>({
  studyId,
  canEdit,
  title,
  rowNoun,
  kind,
  columns,
  rows,
  optionsGroup,
  minWidth,
  children,
}: {
  studyId: number;
  canEdit: boolean;
  /** The table's name, e.g. 'Fragrance Details'. */
  title: string;
  /** What a row is, plural: 'fragrances', 'concepts'. */
  rowNoun: string;
  kind: TableKind<Field>;
  columns: readonly EditableColumn<Field>[];
  rows: readonly Row[];
  optionsGroup: 'fragrance' | 'concept';
  minWidth: number;
  /** The read-only table. */
  children: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [original, setOriginal] = useState<DraftRow<Field>[]>([]);
  const [draft, setDraft] = useState<DraftRow<Field>[]>([]);
  const [errors, setErrors] = useState<RowErrors<Field>>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const nextKey = useRef(1);
  const container = useRef<HTMLDivElement>(null);
  // A CSS selector of the control to focus once the next render is on screen.
  const pendingFocus = useRef<string | null>(null);
  const save = useSaveStudyTableMutation(studyId);
  const optionsQuery = useStudyOptionsQuery(editing);
  const options = useMemo(
    () => optionsByField(optionsQuery.data, optionsGroup),
    [optionsQuery.data, optionsGroup],
  );

  useEffect(() => {
    if (!pendingFocus.current) return;
    container.current?.querySelector<HTMLElement>(pendingFocus.current)?.focus();
    pendingFocus.current = null;
  });

  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = window.setTimeout(() => setNotice(null), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  const changed = editing && hasEdits(kind, original, draft);
  // The checks' notice goes once every marked field is put right.
  const invalid = Object.values(errors).some((rowErrors) => rowErrors && Object.keys(rowErrors).length > 0);
  const removed = editing ? removedRows(original, draft).length : 0;

  const onChange = useCallback((key: string, field: Field, value: string) => {
    setDraft((current) =>
      current.map((row) => (row.key === key ? { ...row, values: { ...row.values, [field]: value } } : row)),
    );
    setErrors((current) => {
      if (!current[key]?.[field]) return current;
      const rowErrors = { ...current[key] };
      delete rowErrors[field];
      return { ...current, [key]: rowErrors };
    });
  }, []);

  const onDelete = useCallback((key: string) => {
    setDraft((current) => {
      const index = current.findIndex((row) => row.key === key);
      const next = current.filter((row) => row.key !== key);
      // Focus stays in the table: the row that took this place, the one above, or 'Add row'.
      const neighbour = next[index] ?? next[index - 1];
      pendingFocus.current = neighbour
        ? `[data-row-key="${neighbour.key}"] [data-delete-row]`
        : '[data-add-row]';
      return next;
    });
    setErrors((current) => {
      if (!(key in current)) return current;
      const rest = { ...current };
      delete rest[key];
      return rest;
    });
  }, []);

  function addRow() {
    const row = emptyDraftRow(kind, `new-${nextKey.current++}`);
    pendingFocus.current = `[data-row-key="${row.key}"] input`;
    setDraft((current) => [row, ...current]);
  }

  function reverseChanges() {
    setDraft(original);
    setErrors({});
    setNotice(null);
  }

  function startEditing() {
    const copy = toDraftRows(kind, rows);
    setOriginal(copy);
    setDraft(copy);
    setErrors({});
    setNotice(null);
    setEditing(true);
  }

  function finishEditing() {
    if (!hasEdits(kind, original, draft)) {
      setEditing(false);
      setErrors({});
      setNotice(null);
      return;
    }
    const problems = validateDraft(kind, draft);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setNotice(null);
      pendingFocus.current = 'input[aria-invalid="true"]';
      return;
    }
    setErrors({});
    setNotice(null);
    save.mutate(buildTableRequest(kind, original, draft) as StudyTableRequest, {
      onSuccess: () => {
        setEditing(false);
        setNotice({
          tone: 'success',
          title: TABLE_SAVE_MESSAGES.successTitle,
          message: TABLE_SAVE_MESSAGES.success,
        });
      },
      onError: (cause) =>
        setNotice({
          tone: 'error',
          message: TABLE_SAVE_MESSAGES.failure,
          detail: isApiError(cause) && cause.status === 400 ? cause.message : undefined,
        }),
    });
  }

  const noticeBox = notice ? (
    <Alert
      color={notice.tone === 'success' ? 'green' : 'red'}
      variant="light"
      title={notice.title}
      role={notice.tone === 'success' ? 'status' : 'alert'}
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={() => setNotice(null)}
    >
      <Text size="sm">{notice.message}</Text>
      {notice.detail ? (
        <Text size="sm" mt={4}>
          {notice.detail}
        </Text>
      ) : null}
    </Alert>
  ) : null;

  if (!canEdit) return <>{children}</>;

  return (
    <Stack gap="sm" ref={container}>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          {editing ? (
            <>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                onClick={addRow}
                disabled={save.isPending}
                data-add-row
              >
                Add row
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
                onClick={reverseChanges}
                disabled={!changed || save.isPending}
              >
                Reverse changes
              </Button>
            </>
          ) : null}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {save.isPending ? (
            <Group gap={6} role="status">
              <Loader size="xs" aria-hidden="true" />
              <Text size="sm" c="dimmed">
                Saving…
              </Text>
            </Group>
          ) : null}
          <Switch
            label={`Edit ${rowNoun}`}
            checked={editing}
            disabled={save.isPending || (!editing && rows.length === 0)}
            onChange={(event) => (event.currentTarget.checked ? startEditing() : finishEditing())}
          />
        </Group>
      </Group>
      {noticeBox}
      {editing && invalid ? (
        <Alert color="red" variant="light" role="alert" title={TABLE_SAVE_MESSAGES.invalidTitle}>
          <Text size="sm">{TABLE_SAVE_MESSAGES.invalid}</Text>
        </Alert>
      ) : null}
      {editing ? (
        <>
          <Text size="sm" c="dimmed">
            New rows are added at the top. Switch “Edit {rowNoun}” off to save the table.
          </Text>
          {removed > 0 ? (
            <Alert color="yellow" variant="light" p="xs">
              <Text size="sm">
                {removed === 1
                  ? '1 removed row will be deleted, with its answers, when you save.'
                  : `${removed} removed rows will be deleted, with their answers, when you save.`}
              </Text>
            </Alert>
          ) : null}
          <ScrollRegion label={`${title}, editing`}>
            <Table
              withTableBorder
              verticalSpacing="xs"
              fz="sm"
              aria-label={`${title} (editing)`}
              miw={minWidth}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={56}>
                    <Text size="sm" fw={700} span style={{ whiteSpace: 'nowrap' }}>
                      Delete
                    </Text>
                  </Table.Th>
                  {columns.map((column) => (
                    <Table.Th key={column.field} style={{ whiteSpace: 'nowrap' }}>
                      {column.label}
                      {kind.required.includes(column.field) ? (
                        <Text span c="red.8" aria-hidden="true">
                          {' *'}
                        </Text>
                      ) : null}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {draft.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={columns.length + 1}>
                      <Text size="sm" c="dimmed">
                        Every row was removed. Saving clears the table; Reverse changes brings the rows back.
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  draft.map((row, index) => (
                    <EditRow
                      key={row.key}
                      row={row}
                      position={index + 1}
                      columns={columns}
                      required={kind.required}
                      errors={errors[row.key]}
                      options={options}
                      disabled={save.isPending}
                      onChange={onChange}
                      onDelete={onDelete}
                    />
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </>
      ) : (
        children
      )}
    </Stack>
  );
}
