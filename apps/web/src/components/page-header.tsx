import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  href?: string;
}

/** Breadcrumb trail, page heading, an optional sentence under it and actions on the right. */
export function PageHeader({
  title,
  breadcrumbs,
  description,
  actions,
}: {
  title: ReactNode;
  breadcrumbs: Crumb[];
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Stack gap="xs" mb="lg">
      <nav aria-label="Breadcrumb">
        <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap', rowGap: 4 } }}>
          {breadcrumbs.map((crumb, index) => {
            const last = index === breadcrumbs.length - 1;
            if (last || !crumb.href) {
              return (
                <Text key={crumb.label} size="sm" c="dimmed" aria-current={last ? 'page' : undefined}>
                  {crumb.label}
                </Text>
              );
            }
            return (
              <Anchor key={crumb.label} component={Link} to={crumb.href} size="sm">
                {crumb.label}
              </Anchor>
            );
          })}
        </Breadcrumbs>
      </nav>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 280px' }}>
          <Title order={1} fz={{ base: 24, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {description ? <Text c="dimmed">{description}</Text> : null}
        </Stack>
        {actions ? <Group gap="sm">{actions}</Group> : null}
      </Group>
    </Stack>
  );
}
