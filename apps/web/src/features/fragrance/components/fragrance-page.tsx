import {
  FRAGRANCE_DECK_FILE_NAME,
  FRAGRANCE_MESSAGES,
  FRAGRANCE_POOL_LABELS,
  FRAGRANCE_POOL_SCOPES,
  FRAGRANCE_POOLED_METRICS,
  fragranceSentence,
  LOW_BASE,
  type FragrancePooled,
  type FragrancePoolScope,
  type FragranceQuery,
  type FragranceResponse,
  type FragranceTest,
} from '@accord/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Fact, Section } from '../../../components/detail/detail-card.tsx';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { PageHeader, type Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useFragranceQuery } from '../api/get-fragrance.ts';
import { useDownloadFragranceSlidesMutation } from '../api/download-slides.ts';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { useSession } from '../../../lib/session.ts';
import {
  agreementWords,
  formatMean,
  formatShare,
  groupLabel,
  intervalsOf,
  METRIC_LABELS,
  poolingState,
  poolSentence,
  yearSpan,
} from '../utils/fragrance-format.ts';
import { MarketChart, TrendChart } from './fragrance-charts.tsx';

const CRUMBS: Crumb[] = [
  { label: 'Home', href: paths.home.href() },
  { label: 'Search', href: paths.search.href() },
  { label: 'Fragrance' },
];

function NotFound({ message }: { message: string }) {
  return (
    <>
      <PageHeader title="Fragrance not found" breadcrumbs={CRUMBS} />
      <Alert color="gray" variant="light" title={message}>
        <Text size="sm">
          Check the code, or find the fragrance from the{' '}
          <Anchor component={Link} to={paths.search.href()} size="sm">
            study search
          </Anchor>
          .
        </Text>
      </Alert>
    </>
  );
}

/**
 * One metric's pooled estimate: the number, its Hartung-Knapp-Sidik-Jonkman interval, the prediction
 * interval for a new test, what I² says in words, then the DerSimonian-Laird figures.
 */
function PooledCard({ pooled }: { pooled: FragrancePooled }) {
  const words = agreementWords(pooled.i2);
  const intervals = intervalsOf(pooled);
  return (
    <Card withBorder radius="md" padding="md" aria-label={`Pooled ${METRIC_LABELS[pooled.metric]}`}>
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {METRIC_LABELS[pooled.metric]} (mean)
        </Text>
        {pooled.estimate === null ? (
          <Text size="sm" c="dimmed">
            {pooled.k === 1 ? 'One study with answers: nothing to pool.' : 'No studies with answers.'}
          </Text>
        ) : (
          <>
            <Text fz={28} fw={700} lh={1.1}>
              {formatMean(pooled.estimate)}
            </Text>
            <Text size="sm">95% interval {intervals.hksj}</Text>
            <Text size="sm">Prediction interval for a new test: {intervals.prediction}</Text>
            {words ? (
              <Group gap="xs" wrap="wrap">
                <Badge color={words.color} variant="light">
                  {words.verdict}
                </Badge>
                <Text size="sm">I² {formatShare(pooled.i2)}</Text>
              </Group>
            ) : null}
            {words ? (
              <Text size="sm" c="dimmed">
                {words.sentence}
              </Text>
            ) : null}
            <Text size="xs" c="dimmed">
              {pooled.k} studies · normal interval {intervals.normal} · τ²{' '}
              {pooled.tau2 === null ? '-' : pooled.tau2.toFixed(3)} · Q{' '}
              {pooled.q === null ? '-' : pooled.q.toFixed(2)}
            </Text>
          </>
        )}
      </Stack>
    </Card>
  );
}

/** A score cell with its base in the title; * marks a low base. */
function ScoreCell({ value, n }: { value: string; n: number | undefined }) {
  if (n === undefined) return <Text size="sm">-</Text>;
  const low = n < LOW_BASE;
  return (
    <Text size="sm" ta="right" title={`Base: n = ${n}`} style={{ whiteSpace: 'nowrap' }}>
      {value}
      {low ? '*' : ''}
    </Text>
  );
}

function TestsTable({ tests, code }: { tests: FragranceTest[]; code: string }) {
  return (
    <Table.ScrollContainer minWidth={1280}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={`Tests of fragrance ${code}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Year</Table.Th>
            <Table.Th>Study</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Market</Table.Th>
            <Table.Th>Methodology / category</Table.Th>
            <Table.Th ta="right">Base n</Table.Th>
            <Table.Th ta="right">Liking mean</Table.Th>
            <Table.Th ta="right">Liking T2B</Table.Th>
            <Table.Th ta="right">Purchase intention mean</Table.Th>
            <Table.Th ta="right">Purchase intention T2B</Table.Th>
            <Table.Th ta="right">Strength: weak or too weak</Table.Th>
            <Table.Th ta="right">Strength: just right</Table.Th>
            <Table.Th ta="right">Strength: strong or too strong</Table.Th>
            <Table.Th>Profile</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tests.map((test) => (
            <Table.Tr key={`${test.study_id}-${test.prod}`}>
              <Table.Td>{test.year}</Table.Td>
              <Table.Td miw={220}>
                <Stack gap={2}>
                  <Anchor component={Link} to={paths.studyDetails.href(test.study_id)} size="sm" fw={600}>
                    {test.c_mi_number}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {test.project_name}
                  </Text>
                  {test.not_pooled_reason === null ? null : (
                    <Text size="xs" fw={600} fs="italic">
                      {test.not_pooled_reason}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>{test.client}</Table.Td>
              <Table.Td>
                <Text size="sm">{test.market ?? '-'}</Text>
                <Text size="xs" c="dimmed">
                  {test.region.join(', ') || '-'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{test.methodology ?? '-'}</Text>
                <Text size="xs" c="dimmed">
                  {test.category ?? '-'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{test.base}</Table.Td>
              <Table.Td>
                <ScoreCell value={formatMean(test.scores.liking?.mean)} n={test.scores.liking?.n} />
              </Table.Td>
              <Table.Td>
                <ScoreCell value={formatShare(test.scores.liking?.top_2_box)} n={test.scores.liking?.n} />
              </Table.Td>
              <Table.Td>
                <ScoreCell
                  value={formatMean(test.scores.purchase_intention?.mean)}
                  n={test.scores.purchase_intention?.n}
                />
              </Table.Td>
              <Table.Td>
                <ScoreCell
                  value={formatShare(test.scores.purchase_intention?.top_2_box)}
                  n={test.scores.purchase_intention?.n}
                />
              </Table.Td>
              <Table.Td>
                <ScoreCell
                  value={formatShare(test.scores.strength?.bottom_2_box)}
                  n={test.scores.strength?.n}
                />
              </Table.Td>
              <Table.Td>
                <ScoreCell
                  value={formatShare(test.scores.strength?.just_right)}
                  n={test.scores.strength?.n}
                />
              </Table.Td>
              <Table.Td>
                <ScoreCell value={formatShare(test.scores.strength?.top_2_box)} n={test.scores.strength?.n} />
              </Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={paths.fragranceProfile.href(test.study_id, test.prod)}
                  size="sm"
                  aria-label={`Profile of ${test.name} in ${test.c_mi_number}`}
                >
                  Profile
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The value of the group picker for a category and methodology. */
const groupValue = (group: { category: string | null; methodology: string | null }) =>
  JSON.stringify([group.category, group.methodology]);

function Content({
  data,
  query,
  onQuery,
}: {
  data: FragranceResponse;
  /** The page's query: its category and methodology, and the pool chosen. */
  query: FragranceQuery;
  onQuery: (query: FragranceQuery) => void;
}) {
  const [metric, setMetric] = useState<(typeof FRAGRANCE_POOLED_METRICS)[number]>('liking');
  const pooling = poolingState(data);
  const studies = new Set(data.tests.map((test) => test.study_id)).size;
  const markets = new Set(data.tests.map((test) => test.market).filter(Boolean)).size;
  const sentence = fragranceSentence(data);
  const group = data.pooling_group;
  const { permissions } = useSession();
  const slides = useDownloadFragranceSlidesMutation();
  return (
    <>
      <PageHeader
        title={data.name}
        breadcrumbs={CRUMBS}
        description={`6 Digit Code (SAP) ${data.code} · ${studies} ${studies === 1 ? 'study' : 'studies'}, ${markets} ${markets === 1 ? 'market' : 'markets'}, ${yearSpan(data)}`}
        actions={
          permissions.allowDownload ? (
            <SlidesButton
              fileName={FRAGRANCE_DECK_FILE_NAME}
              label="Download slides of this fragrance"
              loading={slides.isPending}
              onClick={() => slides.mutate({ code: data.code, query })}
            />
          ) : undefined
        }
      />
      <Stack gap="lg">
        {sentence ? (
          <Text size="lg" fw={500} data-testid="fragrance-sentence">
            {sentence}
          </Text>
        ) : null}
        <Card withBorder radius="md" padding="md">
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm">
            <Fact label="6 Digit Code (SAP)">{data.code}</Fact>
            <Fact label="Family / subfamily">
              {data.family ?? '-'} / {data.subfamily ?? '-'}
            </Fact>
            <Fact label="Perfumer">{data.perfumer_name ?? '-'}</Fact>
            <Fact label="Tests">
              {data.tests.length} in {studies} {studies === 1 ? 'study' : 'studies'}
            </Fact>
          </SimpleGrid>
        </Card>
        <Section id="pooled" title="Pooled across studies">
          <Stack gap="sm">
            {group ? (
              <Group gap="md" align="flex-start" wrap="wrap">
                <Text size="sm" style={{ flex: '1 1 320px' }} data-testid="fragrance-pool">
                  {poolSentence(data)}
                </Text>
                {data.pooling_groups.length > 1 && data.pool !== 'all' ? (
                  <Select
                    label={data.pool === 'category' ? 'Category pooled' : 'Category and methodology pooled'}
                    value={groupValue(group)}
                    onChange={(value) => {
                      const chosen = data.pooling_groups.find((entry) => groupValue(entry) === value);
                      if (chosen)
                        onQuery({
                          ...(chosen.category === null ? {} : { category: chosen.category }),
                          ...(chosen.methodology === null ? {} : { methodology: chosen.methodology }),
                          pool: data.pool,
                        });
                    }}
                    data={data.pooling_groups
                      // With every methodology pooled, one entry per category.
                      .filter(
                        (entry, at, all) =>
                          data.pool !== 'category' ||
                          all.findIndex((other) => other.category === entry.category) === at ||
                          groupValue(entry) === groupValue(group),
                      )
                      .filter(
                        (entry) =>
                          data.pool !== 'category' ||
                          entry.category !== group.category ||
                          groupValue(entry) === groupValue(group),
                      )
                      .map((entry) => ({
                        value: groupValue(entry),
                        label:
                          data.pool === 'category'
                            ? (entry.category ?? 'No category')
                            : `${groupLabel(entry)} (${entry.studies} ${entry.studies === 1 ? 'study' : 'studies'})`,
                      }))}
                    allowDeselect={false}
                    w={{ base: '100%', sm: 360 }}
                  />
                ) : null}
                <Radio.Group
                  label="Tests pooled"
                  value={data.pool}
                  onChange={(value) =>
                    onQuery({
                      ...(group.category === null ? {} : { category: group.category }),
                      ...(group.methodology === null ? {} : { methodology: group.methodology }),
                      pool: value as FragrancePoolScope,
                    })
                  }
                  w={{ base: '100%', sm: 'auto' }}
                >
                  <Stack gap={6} mt={6}>
                    {FRAGRANCE_POOL_SCOPES.map((value) => (
                      <Radio
                        key={value}
                        value={value}
                        label={`${FRAGRANCE_POOL_LABELS[value]}${value === 'group' ? ' (default)' : ''}`}
                      />
                    ))}
                  </Stack>
                </Radio.Group>
              </Group>
            ) : null}
            {data.pool_caution ? (
              <Alert color="yellow" variant="light" title="Pooling across tests a researcher may keep apart">
                <Text size="sm" data-testid="fragrance-pool-caution">
                  {data.pool_caution}
                </Text>
              </Alert>
            ) : null}
            {pooling.message ? (
              <Alert color="gray" variant="light" title={pooling.message}>
                Pooling needs at least two verified studies; the tests below are the whole story for now.
              </Alert>
            ) : (
              <>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  {data.pooled.map((pooled) => (
                    <PooledCard key={pooled.metric} pooled={pooled} />
                  ))}
                </SimpleGrid>
                <Text size="sm" c="dimmed">
                  Each study counts once, weighted by its precision and by how much studies differ (a
                  random-effects meta-analysis of the study means, DerSimonian-Laird). The 95% interval is
                  Hartung-Knapp-Sidik-Jonkman&apos;s (t with studies − 1 degrees of freedom), wider than the
                  normal interval when there are few studies; the prediction interval, from 3 studies, is
                  where a new test of the fragrance would likely fall. I² is the share of the differences
                  between studies that sampling alone does not explain: below 25% the tests agree, from 75%
                  they differ (by market, panel or year). Means on the harmonised 1-5 scale; verified studies
                  only. Strength is not pooled as a mean: its shares are shown per test below.
                </Text>
              </>
            )}
          </Stack>
        </Section>
        <Section id="tests" title="Tests">
          <Stack gap="xs">
            <TestsTable tests={data.tests} code={data.code} />
            <Text size="xs" c="dimmed">
              Latest first. Hover a value to see its base n; * marks a low base (below {LOW_BASE} answers).
              T2B: top 2 box. Strength: shares of the harmonised answers, weak or too weak (1-2), just right
              (3), strong or too strong (4-5). Do not compare scores across different markets without the
              pooled view.
            </Text>
          </Stack>
        </Section>
        <Section id="charts" title="By market and over time">
          <Stack gap="md">
            <SegmentedControl
              aria-label="Metric of the charts"
              value={metric}
              onChange={(value) => setMetric(value as (typeof FRAGRANCE_POOLED_METRICS)[number])}
              data={FRAGRANCE_POOLED_METRICS.map((value) => ({ value, label: METRIC_LABELS[value] }))}
              fullWidth
              w={{ base: '100%', sm: 480 }}
              styles={{ label: { whiteSpace: 'normal', lineHeight: 1.25 } }}
            />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
              <Stack gap="xs">
                <Title order={3} fz="md">
                  By market
                </Title>
                <MarketChart data={data} metric={metric} />
              </Stack>
              <Stack gap="xs">
                <Title order={3} fz="md">
                  Over time
                </Title>
                <TrendChart data={data} metric={metric} />
              </Stack>
            </SimpleGrid>
          </Stack>
        </Section>
      </Stack>
    </>
  );
}

/**
 * One fragrance across all its tests: a sentence a researcher reads first, the pooled estimates of one
 * category and methodology with their intervals and agreement (I²), the tests the user may see, and
 * the scores by market and over time.
 */
export function FragrancePage() {
  const code = (useParams().code ?? '').trim();
  const [query, setQuery] = useState<FragranceQuery>({});
  const fragrance = useFragranceQuery(code, query);
  if (fragrance.isError && isApiError(fragrance.error)) {
    if (fragrance.error.status === 404) return <NotFound message={FRAGRANCE_MESSAGES.noTests} />;
    if (fragrance.error.status === 400) return <NotFound message={FRAGRANCE_MESSAGES.malformedCode} />;
  }
  if (fragrance.isError)
    return (
      <>
        <PageHeader title="Fragrance" breadcrumbs={CRUMBS} />
        <Alert color="red" variant="light" title="The fragrance could not be loaded.">
          Please try again later.
        </Alert>
      </>
    );
  if (fragrance.isPending) return <FullPageLoader minHeight="50vh" />;
  return <Content data={fragrance.data} query={query} onQuery={setQuery} />;
}
