import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { StudyTag, StudyTagDefinition } from '@accord/contracts';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { showAlert } from '../../../lib/alerts.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useAddStudyTagMutation } from '../api/add-study-tag.ts';
import { incoherentFieldsOf } from '../api/update-study.ts';
import {
  EDIT_MESSAGES,
  badFields,
  badFieldsMessage,
  parseWholeNumber,
  tagInputKind,
  toRequestValue,
  type InputValue,
} from '../utils/details-edit.ts';
import { DetailInput } from './details-edit-input.tsx';

/** The 'Add info' popup of a tag group: only the fields that are currently empty. */
export function AddInfoModal({
  title,
  tags,
  opened,
  onClose,
  onPick,
}: {
  /** The tag group's title. */
  title: string;
  /** The group's empty, editable tags. */
  tags: StudyTag[];
  opened: boolean;
  onClose: () => void;
  onPick: (tag: StudyTag) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Add info: ${title}`} centered>
      {tags.length === 0 ? (
        <Text size="sm" c="dimmed">
          Every {title.toLowerCase()} field of this study has a value.
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            These fields are empty. Choose one to add its value.
          </Text>
          {tags.map((tag) => (
            <Button
              key={tag.field}
              variant="default"
              justify="space-between"
              fullWidth
              rightSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => onPick(tag)}
            >
              {tag.label}
            </Button>
          ))}
        </Stack>
      )}
    </Modal>
  );
}

/** Why the value cannot be added yet, or null. */
function valueProblem(
  kind: ReturnType<typeof tagInputKind>,
  label: string,
  value: InputValue,
): string | null {
  if (kind === 'whole' && typeof value === 'string' && value.trim() !== '' && parseWholeNumber(value) == null)
    return EDIT_MESSAGES.wholeNumber(label);
  return null;
}

const hasValue = (value: InputValue) => (Array.isArray(value) ? value.length > 0 : value.trim() !== '');

function AddTagForm({
  studyId,
  tag,
  definition,
  labelOf,
  onClose,
}: {
  studyId: number;
  tag: StudyTag;
  definition: StudyTagDefinition;
  labelOf: (field: string) => string;
  onClose: () => void;
}) {
  const kind = tagInputKind(definition);
  const [value, setValue] = useState<InputValue>(kind === 'multiselect' ? [] : '');
  const [failure, setFailure] = useState<{ message: string; marked: boolean } | null>(null);
  const save = useAddStudyTagMutation(studyId);
  const problem = valueProblem(kind, tag.label, value);
  const ready = hasValue(value) && problem === null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || save.isPending) return;
    setFailure(null);
    save.mutate(
      { field: tag.field, value: toRequestValue(kind, value), oldValue: tag.value },
      {
        onSuccess: (answer) => {
          showAlert('success', answer.message, undefined, EDIT_MESSAGES.successTitle);
          onClose();
        },
        onError: (error) => {
          const incoherent = incoherentFieldsOf(error);
          const bad = incoherent ? badFields(incoherent) : [];
          if (bad.length > 0 && isApiError(error)) {
            setFailure({ message: badFieldsMessage(error.message, bad.map(labelOf)), marked: true });
          } else if (isApiError(error) && (error.status === 400 || error.status === 409)) {
            setFailure({ message: error.message, marked: error.status === 400 });
          } else {
            setFailure({ message: EDIT_MESSAGES.tryAgain, marked: false });
          }
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <DetailInput
          field={tag.field}
          label={tag.label}
          kind={kind}
          definition={definition}
          value={value}
          onChange={(next) => {
            setValue(next);
            setFailure(null);
          }}
          error={problem ?? (failure?.marked ? true : undefined)}
          disabled={save.isPending}
          placeholder={kind === 'text' ? 'Type a value' : undefined}
          autoFocus
        />
        {failure ? (
          <Alert color="red" variant="light" title={EDIT_MESSAGES.failedTitle} role="alert">
            {failure.message}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!ready} loading={save.isPending}>
            Add tag
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The 'Add tag' popup (document 2 section 5): 'Add tag' stays disabled without a value; age,
 * # of products and sample size take a whole number of at least 1, other text tags free text, the
 * rest one or more of their options. Saved through the tag edit, so the study history records it.
 */
export function AddTagModal({
  studyId,
  tag,
  definition,
  labelOf,
  onClose,
}: {
  studyId: number;
  tag: StudyTag | null;
  definition: StudyTagDefinition | undefined;
  /** A field's label, for the fields a refused tag names. */
  labelOf: (field: string) => string;
  onClose: () => void;
}) {
  return (
    <Modal opened={tag !== null} onClose={onClose} title={tag ? `Add tag: ${tag.label}` : ''} centered>
      {tag && definition ? (
        <AddTagForm
          key={tag.field}
          studyId={studyId}
          tag={tag}
          definition={definition}
          labelOf={labelOf}
          onClose={onClose}
        />
      ) : null}
    </Modal>
  );
}
