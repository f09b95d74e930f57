import { Badge, Table } from '@mantine/core';
import type { StudyFileError } from '@accord/contracts';
import { ScrollRegion } from './scroll-table.tsx';

/** Filled badge colours with readable text (red.9 keeps white text above 4.5:1). */
export const LEVEL_COLOURS: Record<StudyFileError['level'], string> = { error: 'red.9', warning: 'yellow.5' };
const LEVEL_LABELS: Record<StudyFileError['level'], string> = { error: 'Error', warning: 'Warning' };

/** Errors first, then warnings, keeping their order otherwise. */
export function sortErrors(errors: readonly StudyFileError[]): StudyFileError[] {
  return [...errors].sort((a, b) => (a.level === b.level ? 0 : a.level === 'error' ? -1 : 1));
}

/** "2 errors, 1 warning" */
export function errorSummary(errors: readonly StudyFileError[]): string {
  const count = (level: StudyFileError['level']) => errors.filter((item) => item.level === level).length;
  const parts: string[] = [];
  const errorCount = count('error');
  const warningCount = count('warning');
  if (errorCount) parts.push(`${errorCount} error${errorCount === 1 ? '' : 's'}`);
  if (warningCount) parts.push(`${warningCount} warning${warningCount === 1 ? '' : 's'}`);
  return parts.join(', ');
}

/** The error details table of a folder or file: level, problem, details, event and file. */
export function ErrorDetailsTable({ errors, label }: { errors: readonly StudyFileError[]; label: string }) {
  return (
    // A focusable scroll region: on a phone the table scrolls sideways by keyboard too.
    <ScrollRegion label={label}>
      <Table withTableBorder verticalSpacing={6} fz="sm" aria-label={label} layout="fixed" miw={640}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={96}>Level</Table.Th>
            <Table.Th w="24%">Problem</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th w={96}>Event</Table.Th>
            <Table.Th w="20%">File</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sortErrors(errors).map((item, index) => (
            <Table.Tr key={`${item.error_file}-${item.id}-${index}`}>
              <Table.Td>
                <Badge
                  color={LEVEL_COLOURS[item.level]}
                  variant={item.level === 'error' ? 'filled' : 'light'}
                >
                  {LEVEL_LABELS[item.level]}
                </Badge>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.high_msg}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.msg}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.event}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.error_file}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}
