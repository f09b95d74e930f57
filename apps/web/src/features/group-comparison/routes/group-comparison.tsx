import {
  GROUP_COMPARISON_DECK_FILE_NAME,
  MESSAGES,
  WIZARD_MESSAGES,
  type AnalyticsDemographicsFilter,
  type GroupComparisonResult,
} from '@accord/contracts';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import {
  useDownloadGroupDeck,
  useGroupComparisonJob,
  useQueueGroupComparison,
} from '../api/group-comparison.ts';
import { DifferencesTable } from '../components/differences-table.tsx';
import { GroupFiltersForm } from '../components/group-filters-form.tsx';
import { GroupResults } from '../components/group-results.tsx';
import {
  ALL_RESPONDENTS,
  EMPTY_GROUP,
  filterTags,
  groupRequest,
  type GroupDemographics,
  type GroupFilters,
} from '../utils/groups.ts';

const HOME = { label: 'Home', href: paths.home.href() };
type Pair<T> = [T, T];

/** Group Comparison (document 3 sections 2.6 and 4.5): two groups side by side. */
export function Component() {
  const [step, setStep] = useState<'first' | 'second'>('first');
  const [editing, setEditing] = useState<'1' | '2'>('1');
  const [filters, setFilters] = useState<Pair<GroupFilters>>([EMPTY_GROUP, EMPTY_GROUP]);
  const [demographics, setDemographics] = useState<Pair<GroupDemographics>>([
    ALL_RESPONDENTS,
    ALL_RESPONDENTS,
  ]);
  const [selection, setSelection] = useState<Pair<Set<number>>>([new Set(), new Set()]);
  const [shown, setShown] = useState<{
    result: GroupComparisonResult;
    /** The comparison job shown, for its slides. */
    jobId: string;
    tags: Pair<string[]>;
    demographics: Pair<AnalyticsDemographicsFilter>;
  } | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const queue = useQueueGroupComparison();
  const job = useGroupComparisonJob(jobId);
  const { permissions } = useSession();
  const slides = useDownloadGroupDeck();
  const [pendingTags, setPendingTags] = useState<Pair<string[]>>([[], []]);
  // The respondent filters the shown comparison ran with (the form may change before the next one).
  const [pendingDemographics, setPendingDemographics] = useState<Pair<AnalyticsDemographicsFilter>>([{}, {}]);

  const status = job.data?.status;
  const loading =
    queue.isPending ||
    (jobId !== null && status !== 'SUCCESS' && status !== 'FAILURE' && status !== 'REVOKED');

  useEffect(() => {
    if (status !== 'SUCCESS' || !job.data?.result || jobId === null) return;
    const result = job.data.result.json;
    // Newly loaded results are all selected.
    setSelection([
      new Set(result.group1.results.map((row) => row.id)),
      new Set(result.group2.results.map((row) => row.id)),
    ]);
    setShown({ result, jobId, tags: pendingTags, demographics: pendingDemographics });
    setStep('second');
    setJobId(null);
  }, [status, job.data, jobId, pendingTags, pendingDemographics]);

  const compare = (products: Pair<number[] | null>) => {
    setRefusal(null);
    setPendingTags([filterTags(filters[0], demographics[0]), filterTags(filters[1], demographics[1])]);
    const group1 = groupRequest(filters[0], demographics[0], products[0]);
    const group2 = groupRequest(filters[1], demographics[1], products[1]);
    setPendingDemographics([group1.demographics ?? {}, group2.demographics ?? {}]);
    queue.mutate({ group1, group2 }, { onSuccess: (queued) => setJobId(queued.jobid) });
  };

  const compareSelection = () => {
    if (selection[0].size === 0 || selection[1].size === 0) {
      setRefusal(WIZARD_MESSAGES.groupsNeedProducts);
      return;
    }
    compare([[...selection[0]], [...selection[1]]]);
  };

  const failure = queue.isError
    ? queue.error.message
    : status === 'FAILURE' || status === 'REVOKED'
      ? (job.data?.error ?? 'The comparison failed.')
      : null;

  const index = editing === '1' ? 0 : 1;
  const busy = loading ? (
    <Group gap="xs" role="status">
      <Loader size="sm" />
      <Text size="sm">Comparing the groups…</Text>
    </Group>
  ) : null;
  const errors =
    failure || refusal ? (
      <Alert color="red" title="No comparison">
        {refusal ?? failure}
      </Alert>
    ) : null;

  return (
    <>
      <PageHeader
        title={paths.groupComparison.title}
        breadcrumbs={[HOME, { label: paths.groupComparison.title }]}
        description="Compare two groups, e.g. fragrances or business units."
      />
      {step === 'first' || !shown ? (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <SegmentedControl
              aria-label="Group to edit"
              value={editing}
              onChange={(value) => setEditing(value as '1' | '2')}
              data={[
                { value: '1', label: 'Group 1' },
                { value: '2', label: 'Group 2' },
              ]}
              w={{ base: '100%', xs: 280 }}
            />
            <GroupFiltersForm
              key={editing}
              group={index + 1}
              value={filters[index]}
              onChange={(value) => setFilters(index === 0 ? [value, filters[1]] : [filters[0], value])}
            />
            {errors}
            <Group justify="space-between">
              {busy ?? <span />}
              <Button onClick={() => compare([null, null])} loading={loading}>
                Compare
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="lg">
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep('first')}>
              Back
            </Button>
            <Group gap="sm">
              {busy}
              {permissions.allowDownload ? (
                <SlidesButton
                  fileName={GROUP_COMPARISON_DECK_FILE_NAME}
                  label="Download slides of the comparison"
                  loading={slides.isPending}
                  disabled={loading}
                  onClick={() => slides.mutate(shown.jobId)}
                />
              ) : null}
              <Button onClick={compareSelection} loading={loading}>
                Compare
              </Button>
            </Group>
          </Group>
          {errors}
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {([0, 1] as const).map((side) => (
              <Paper key={side} withBorder radius="md" p={{ base: 'md', sm: 'lg' }} style={{ minWidth: 0 }}>
                <GroupResults
                  group={side + 1}
                  result={side === 0 ? shown.result.group1 : shown.result.group2}
                  tags={filterTags(filters[side], demographics[side])}
                  demographics={demographics[side]}
                  onDemographics={(value) =>
                    setDemographics(side === 0 ? [value, demographics[1]] : [demographics[0], value])
                  }
                  selected={selection[side]}
                  onSelected={(value) =>
                    setSelection(side === 0 ? [value, selection[1]] : [selection[0], value])
                  }
                />
              </Paper>
            ))}
          </SimpleGrid>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <DifferencesTable
              differences={shown.result.differences}
              bases={shown.result.bases}
              groups={[
                {
                  products: shown.result.group1.results.map((row) => row.id),
                  demographics: shown.demographics[0],
                },
                {
                  products: shown.result.group2.results.map((row) => row.id),
                  demographics: shown.demographics[1],
                },
              ]}
            />
          </Paper>
          <Text size="xs" c="dimmed">
            {MESSAGES.harmonisedFootnote}
          </Text>
        </Stack>
      )}
    </>
  );
}
