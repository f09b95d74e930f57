import { Alert, Box } from '@mantine/core';
import { paths } from '../config/paths.ts';
import { PageHeader } from './page-header.tsx';

/** The sentence of the No access page of an analytics-only section. */
export function analyticsOnlyMessage(section: string): string {
  return `${section} is available to admins and users with analytics access.`;
}

/**
 * The page an analytics-only screen shows to a user without analytics access (client and sales
 * users who type its address): its title, and a "No access" notice naming the section.
 */
export function NoAccess({ title, section }: { title: string; section: string }) {
  return (
    <Box>
      <PageHeader
        title={title}
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: title }]}
      />
      <Alert color="yellow" variant="light" title="No access">
        {analyticsOnlyMessage(section)}
      </Alert>
    </Box>
  );
}
