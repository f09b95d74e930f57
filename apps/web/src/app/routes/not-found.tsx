import { Button, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { paths } from '../../config/paths.ts';

/** Any path the route map does not know. */
export function NotFound() {
  return (
    <>
      <PageHeader
        title="Page not found"
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: 'Page not found' }]}
      />
      <Paper withBorder p="lg">
        <Stack align="flex-start">
          <Text>There is no page at this address.</Text>
          <Button component={Link} to={paths.home.href()}>
            Go to Home
          </Button>
        </Stack>
      </Paper>
    </>
  );
}
