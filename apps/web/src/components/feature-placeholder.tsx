import { Paper, Text, ThemeIcon, Group } from '@mantine/core';
import { IconHourglassLow } from '@tabler/icons-react';
import { PageHeader, type Crumb } from './page-header.tsx';

/** A screen whose feature is still to come: header, breadcrumb and one sentence saying so. */
export function FeaturePlaceholder({
  title,
  breadcrumbs,
  feature,
}: {
  title: string;
  breadcrumbs: Crumb[];
  feature: string;
}) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={breadcrumbs} />
      <Paper withBorder p="lg" radius="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color="plum" size="lg" radius="xl" aria-hidden="true">
            <IconHourglassLow size={20} />
          </ThemeIcon>
          <Text>This screen arrives with the {feature} feature.</Text>
        </Group>
      </Paper>
    </>
  );
}
