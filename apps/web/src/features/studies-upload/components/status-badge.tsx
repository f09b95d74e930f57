import { Badge } from '@mantine/core';
import type { FileProcessStatus } from '@accord/contracts';

/** A colour per file process state (document 3 section 4.7). */
export const STATUS_COLOURS: Record<FileProcessStatus, string> = {
  UPLOADED: 'blue',
  UNPACKED: 'cyan',
  VALIDATED: 'indigo',
  INJECTED: 'grape',
  ERRORED: 'red',
  SUCCEED: 'green',
};

/** The status shown lowercase; a dotted value shows its last part. */
export function StatusBadge({ status }: { status: string }) {
  const last = (status.split('.').pop() ?? status) as FileProcessStatus;
  return (
    <Badge color={STATUS_COLOURS[last] ?? 'gray'} variant="light" tt="none" data-status={last}>
      {last.toLowerCase()}
    </Badge>
  );
}
