import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { Button, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import type { MetricOption } from '@accord/contracts';
import { useState, type FormEvent } from 'react';
import { metricOptions } from '../utils/mapping.ts';

export interface NewQuestion {
  text: string;
  value: string;
  metric: string | null;
}

/** The 'Add question' popup of a file: a constant question with its value and metric. */
export function AddQuestionModal({
  opened,
  filename,
  catalogue,
  used,
  saving,
  onClose,
  onAdd,
}: {
  opened: boolean;
  filename: string;
  catalogue: MetricOption[];
  used: Map<string, string>;
  saving: boolean;
  onClose: () => void;
  /** Answers null when added, or the message of a refusal. */
  onAdd: (question: NewQuestion) => Promise<string | null>;
}) {
  const [text, setText] = useState('');
  const [value, setValue] = useState('');
  const [metric, setMetric] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setText('');
    setValue('');
    setMetric(null);
    setError(null);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refusal = await onAdd({ text, value, metric });
    if (refusal) setError(refusal);
    else close();
  };

  return (
    <Modal opened={opened} onClose={close} title="Add question" centered>
      <form onSubmit={(event) => void submit(event)} aria-label="Add question">
        <Stack gap="sm">
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            A constant question of {filename}.
          </Text>
          <Textarea
            label="Substance of the question"
            value={text}
            {...textLimit(text, TEXT_LIMITS.questionText)}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setError(null);
            }}
            autosize
            minRows={2}
            data-autofocus
          />
          <TextInput
            label="Constant value"
            value={value}
            {...textLimit(value, TEXT_LIMITS.constantValue)}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(null);
            }}
          />
          <Select
            label="Metric mapping"
            placeholder="Not mapped"
            data={metricOptions(catalogue, used, null)}
            value={metric}
            onChange={(next) => {
              setMetric(next);
              setError(null);
            }}
            searchable
            clearable
            nothingFoundMessage="No metric found"
            comboboxProps={{ withinPortal: true }}
          />
          {error ? (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Close
            </Button>
            <Button type="submit" loading={saving}>
              Add tag
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
