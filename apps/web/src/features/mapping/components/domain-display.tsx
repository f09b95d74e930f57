import { TEXT_LIMITS } from '@accord/contracts';
import { ActionIcon, Anchor, Group, Text, TextInput, Tooltip } from '@mantine/core';
import type { MappingQuestion } from '@accord/contracts';
import { IconDeviceFloppy, IconPencil, IconX } from '@tabler/icons-react';
import { useState, type KeyboardEvent } from 'react';
import { formatRange, sortedValueNames, valuePreview } from '../utils/mapping.ts';

function CategoricalValues({ question }: { question: MappingQuestion }) {
  const [expanded, setExpanded] = useState(false);
  const names = sortedValueNames(question.domain);
  const { shown, more } = valuePreview(names);
  if (names.length === 0) return <Text size="sm">No values</Text>;
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {(expanded ? names : shown).join(', ')}
      {more ? (
        <>
          {expanded ? ' ' : ', '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setExpanded((value) => !value)}
            aria-expanded={expanded}
            aria-label={
              expanded
                ? `Show fewer values of ${question.qid}`
                : `Show all ${names.length} values of ${question.qid}`
            }
          >
            {expanded ? 'less' : '...'}
          </Anchor>
        </>
      ) : null}
    </Text>
  );
}

function ConstantValue({
  question,
  editable,
  saving,
  onSave,
}: {
  question: MappingQuestion;
  editable: boolean;
  saving: boolean;
  onSave: (value: string) => Promise<boolean>;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const current = question.domain.value ?? '';

  const start = () => {
    setDraft(current);
    setEditing(true);
  };
  const save = async () => {
    if (draft.trim() === current) {
      setEditing(false);
      return;
    }
    if (await onSave(draft.trim())) setEditing(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setEditing(false);
    }
  };

  if (editing) {
    return (
      <Group gap={4} wrap="nowrap">
        <TextInput
          size="xs"
          value={draft}
          maxLength={TEXT_LIMITS.constantValue}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          aria-label={`Constant value of ${question.qid}`}
          description="Enter saves, Esc cancels"
          autoFocus
          disabled={saving}
          style={{ flex: '1 1 auto', minWidth: 0 }}
        />
        <Tooltip label="Save value">
          <ActionIcon
            variant="light"
            aria-label={`Save the value of ${question.qid}`}
            onClick={() => void save()}
            loading={saving}
          >
            <IconDeviceFloppy size={16} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Cancel">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Cancel editing the value of ${question.qid}`}
            onClick={() => setEditing(false)}
          >
            <IconX size={16} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {current === '' ? (
          <Text span c="dimmed" size="sm">
            No value
          </Text>
        ) : (
          current
        )}
      </Text>
      {editable ? (
        <Tooltip label="Edit value">
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Edit the value of ${question.qid}`}
            onClick={start}
          >
            <IconPencil size={14} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
}

/** The domain of a question: numeric range, categories (first 2 then '...'), or a constant's value. */
export function DomainDisplay({
  question,
  editable,
  saving,
  onSaveValue,
}: {
  question: MappingQuestion;
  editable: boolean;
  saving: boolean;
  onSaveValue: (value: string) => Promise<boolean>;
}) {
  const { domain } = question;
  const label =
    domain.type === 'numerical' ? 'Numerical' : domain.type === 'categorical' ? 'Categorical' : 'Constant';
  return (
    <Group gap={6} align="flex-start" wrap="nowrap">
      <Text size="sm" c="dimmed" style={{ flex: '0 0 auto' }}>
        {label}:
      </Text>
      <div style={{ minWidth: 0 }}>
        {domain.type === 'numerical' ? <Text size="sm">{formatRange(domain)}</Text> : null}
        {domain.type === 'categorical' ? <CategoricalValues question={question} /> : null}
        {domain.type === 'constant' ? (
          <ConstantValue question={question} editable={editable} saving={saving} onSave={onSaveValue} />
        ) : null}
      </div>
    </Group>
  );
}
