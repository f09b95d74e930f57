import { Modal, Text } from '@mantine/core';
import type { StudyFileError } from '@accord/contracts';
import { ErrorDetailsTable, errorSummary } from './error-details-table.tsx';

/** The Error details modal of one file (document 2 section 4, Version control). */
export function ErrorDetailsModal({
  target,
  onClose,
}: {
  target: { name: string; errors: StudyFileError[] } | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={target !== null} onClose={onClose} title="Error details" size="xl">
      {target ? (
        <>
          <Text size="sm" mb="sm" style={{ overflowWrap: 'anywhere' }}>
            {target.name}: {errorSummary(target.errors)}
          </Text>
          <ErrorDetailsTable errors={target.errors} label={`Error details of ${target.name}`} />
        </>
      ) : null}
    </Modal>
  );
}
