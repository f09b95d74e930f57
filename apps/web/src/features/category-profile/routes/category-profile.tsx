import { CATEGORY_PROFILE_DECK_FILE_NAME, MESSAGES } from '@accord/contracts';
import { Alert, Button, Grid, Group, Loader, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { YearRangeField, fieldChoices } from '../../../components/wizards/narrowing-filters.tsx';
import { paths } from '../../../config/paths.ts';
import { useFieldsQuery } from '../../../lib/api/get-fields.ts';
import { useSession } from '../../../lib/session.ts';
import {
  essentialsOf,
  useDownloadCategoryDeck,
  useFamiliesQuery,
  useQueueTopFragrances,
  useTopFragrancesJob,
  type CategoryFilters,
} from '../api/category-profile.ts';
import { FamilyChart } from '../components/family-chart.tsx';
import { TopFragrances } from '../components/top-fragrances.tsx';

const HOME = { label: 'Home', href: paths.home.href() };
const EMPTY: CategoryFilters = { category: null, region: null, product: null, client: null, year: null };

type FilterKey = 'category' | 'region' | 'product' | 'client';
const SELECTS: { key: FilterKey; field: string; label: string }[] = [
  { key: 'category', field: 'category', label: 'Category' },
  { key: 'region', field: 'region', label: 'Region' },
  { key: 'product', field: 'product_type', label: 'Product' },
  { key: 'client', field: 'client', label: 'Client' },
];

function FilterForm({
  filters,
  onChange,
  keys,
}: {
  filters: CategoryFilters;
  onChange: (filters: CategoryFilters) => void;
  keys: FilterKey[];
}) {
  const fields = useFieldsQuery();
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: keys.length }} spacing="md">
        {SELECTS.filter((entry) => keys.includes(entry.key)).map((entry) => (
          <Select
            key={entry.key}
            label={entry.label}
            placeholder="Any"
            data={fieldChoices(fields.data, entry.field)}
            value={filters[entry.key]}
            onChange={(value) => onChange({ ...filters, [entry.key]: value })}
            searchable
            clearable
            nothingFoundMessage="No options"
          />
        ))}
      </SimpleGrid>
      <YearRangeField value={filters.year} onChange={(year) => onChange({ ...filters, year })} />
    </Stack>
  );
}

/** Category Profile (document 3 sections 2.5 and 4.4): how consumers view a category. */
export function Component() {
  const [draft, setDraft] = useState<CategoryFilters>(EMPTY);
  const [searched, setSearched] = useState<CategoryFilters | null>(null);
  const [family, setFamily] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const families = useFamiliesQuery(searched);
  const queue = useQueueTopFragrances();
  const job = useTopFragrancesJob(jobId);
  const { permissions } = useSession();
  const slides = useDownloadCategoryDeck();

  const search = () => {
    setSearched(draft);
    setFamily(null);
    setJobId(null);
  };

  const choose = (name: string) => {
    if (!searched) return;
    setFamily(name);
    setJobId(null);
    queue.mutate(
      { essentials: essentialsOf(searched), family: name },
      { onSuccess: (queued) => setJobId(queued.jobid) },
    );
  };

  const status = job.data?.status;
  const topLoading = queue.isPending || (jobId !== null && status !== 'SUCCESS' && status !== 'FAILURE');
  const topError = queue.isError
    ? queue.error.message
    : status === 'FAILURE'
      ? (job.data?.error ?? 'The search failed.')
      : null;

  return (
    <>
      <PageHeader
        title={paths.categoryProfile.title}
        breadcrumbs={[HOME, { label: paths.categoryProfile.title }]}
        description="How consumers view a category: its fragrance families and their best fragrances."
      />
      {searched === null ? (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} maw={720}>
          <Stack gap="md">
            <FilterForm filters={draft} onChange={setDraft} keys={['region', 'category']} />
            <Group justify="flex-end">
              <Button onClick={search}>Search</Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="lg">
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <FilterForm
                filters={draft}
                onChange={setDraft}
                keys={['category', 'region', 'product', 'client']}
              />
              <Group justify="flex-end">
                <Button onClick={search}>Update Search</Button>
              </Group>
            </Stack>
          </Paper>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: family ? 7 : 12 }}>
              <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} h="100%">
                {families.isPending ? (
                  <Group gap="xs">
                    <Loader size="sm" />
                    <Text size="sm">Counting the fragrance families…</Text>
                  </Group>
                ) : families.isError ? (
                  <Alert color="red" title="The families could not be counted">
                    {families.error.message}
                  </Alert>
                ) : (
                  <FamilyChart
                    data={families.data}
                    chosen={family}
                    onChoose={choose}
                    action={
                      permissions.allowDownload && searched ? (
                        <SlidesButton
                          fileName={CATEGORY_PROFILE_DECK_FILE_NAME}
                          label={
                            family
                              ? `Download slides of the families and the top ${family}`
                              : 'Download slides of the families'
                          }
                          // A chosen family's slide waits for its top fragrances.
                          loading={slides.isPending || (family !== null && topLoading)}
                          disabled={
                            families.isPlaceholderData ||
                            (family !== null && status !== 'SUCCESS' && !topError)
                          }
                          onClick={() =>
                            slides.mutate({ filters: searched, top: status === 'SUCCESS' ? jobId : null })
                          }
                        />
                      ) : null
                    }
                  />
                )}
              </Paper>
            </Grid.Col>
            {family ? (
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} h="100%">
                  <TopFragrances
                    family={family}
                    loading={topLoading}
                    error={topError}
                    fragrances={status === 'SUCCESS' ? (job.data?.result?.json.fragrances ?? []) : null}
                  />
                </Paper>
              </Grid.Col>
            ) : null}
          </Grid>
          <Text size="xs" c="dimmed">
            {MESSAGES.harmonisedFootnote}
          </Text>
        </Stack>
      )}
    </>
  );
}
