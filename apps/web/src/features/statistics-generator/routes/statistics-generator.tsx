import { Anchor, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconDatabaseSearch, IconFileUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';

const CHOICES = [
  {
    key: 'upload',
    title: 'Upload file',
    text: 'Upload a new RDF',
    href: paths.rdfUpload.href(),
    icon: IconFileUpload,
    active: true,
  },
  {
    key: 'existing',
    title: 'Existing Study',
    text: 'Use an RDF from an existing study',
    href: paths.rdfSearch.href(),
    icon: IconDatabaseSearch,
    active: true,
  },
];

/** The choice screen (document 3 section 2.10): a new upload or an existing study. */
export function Component() {
  return (
    <>
      <PageHeader
        title={paths.statisticsGenerator.title}
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: paths.statisticsGenerator.title }]}
        description="Significance letters, strength questions, correlations and regression from a results data file."
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={900}>
        {CHOICES.map((choice) => {
          const Icon = choice.icon;
          return (
            <Card
              key={choice.key}
              withBorder
              radius="md"
              padding="lg"
              component="article"
              aria-labelledby={`choice-${choice.key}`}
            >
              <Stack gap="sm">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon
                    size={44}
                    radius="md"
                    variant="light"
                    color={choice.active ? 'plum' : 'gray'}
                    aria-hidden="true"
                  >
                    <Icon size={26} stroke={1.6} />
                  </ThemeIcon>
                  <Title order={2} fz="lg" id={`choice-${choice.key}`}>
                    {choice.title}
                    {choice.active ? null : (
                      <Text span c="dimmed" fz="sm" fw={400} ml={6}>
                        (Inactive)
                      </Text>
                    )}
                  </Title>
                </Group>
                <Text c="dimmed">{choice.text}</Text>
                <Anchor
                  component={Link}
                  to={choice.href}
                  fw={600}
                  aria-label={`${choice.title}: ${choice.text}`}
                >
                  <Group gap={4} component="span">
                    Open
                    <IconArrowRight size={16} aria-hidden="true" />
                  </Group>
                </Anchor>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}
