import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** The links of a result row: study details, its files and its statistics. */
export function StudyLinks({ studyId, name }: { studyId: number; name: string }) {
  return (
    <Group gap={10} wrap="nowrap">
      <Anchor
        component={Link}
        to={paths.studyDetails.href(studyId)}
        size="sm"
        aria-label={`Details of ${name}`}
      >
        Details
      </Anchor>
      <Anchor
        component={Link}
        to={paths.studyStructure.href(studyId)}
        size="sm"
        aria-label={`Files of ${name}`}
      >
        Files
      </Anchor>
      <Anchor
        component={Link}
        to={paths.studyStatistics.href(studyId)}
        size="sm"
        aria-label={`Statistics of ${name}`}
      >
        Statistics
      </Anchor>
    </Group>
  );
}
