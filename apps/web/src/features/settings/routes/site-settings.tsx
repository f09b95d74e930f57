import { Paper, Skeleton, Title } from '@mantine/core';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useHelpUrlQuery } from '../../../lib/api/help-url.ts';
import { HelpUrlForm } from '../components/help-url-form.tsx';

/** Route module of /admin: site settings (admin only). */
export function Component() {
  const helpUrl = useHelpUrlQuery();
  return (
    <>
      <PageHeader
        title={paths.adminPanel.title}
        breadcrumbs={[
          { label: 'Home', href: paths.home.href() },
          { label: 'Admin panel' },
          { label: paths.adminPanel.title },
        ]}
      />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Title order={2} fz="lg" mb="md">
          Help
        </Title>
        {helpUrl.isPending ? (
          <Skeleton height={60} maw={640} />
        ) : (
          <HelpUrlForm key={helpUrl.data?.url ?? ''} initialUrl={helpUrl.data?.url ?? ''} />
        )}
      </Paper>
    </>
  );
}
