import {
  LOW_BASE,
  MESSAGES,
  TEXT_LIMITS,
  type DemographicCondition,
  type FieldDefinition,
  type ProfileResponse,
  YES_NO_SHARE_LABEL,
} from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconDownload, IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { FragranceCodeLink } from '../../../components/fragrance/fragrance-tests-link.tsx';
import { Fact, Section } from '../../../components/detail/detail-card.tsx';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { PageHeader, type Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session.ts';
import { useDemographicOptionsQuery } from '../api/get-demographic-options.ts';
import { profileQueryOptions, useProfileQuery } from '../api/get-profile.ts';
import { useDownloadProfileMutation } from '../api/download-profile.ts';
import type { ProfileKind } from '../api/keys.ts';
import { DemographicFilter, emptyFilterForm, type FilterForm } from './demographic-filter.tsx';
import { ProfileTable } from './profile-table.tsx';
import { TimeSeriesChart } from './time-series-chart.tsx';
import {
  filterProfileRows,
  hasBinaryScale,
  headerValue,
  parseHighlighted,
  splitProfileRows,
} from '../utils/profile-format.ts';

export const PROFILE_MESSAGES = {
  noResult: 'No data found for provided filters, displaying previous data.',
  noData: 'No fragrance profile data',
  noAttributes: 'Attributes were not detected for this specific fragrance.',
  noMatch: 'No rows match the table filter.',
  binaryFootnote: `* A yes/no (CATA) metric is the share of answers selecting it (${YES_NO_SHARE_LABEL}), with no mean or boxes.`,
  marketAdvice: 'Do not compare scores across different markets.',
} as const;

const CRUMBS: Crumb[] = [
  { label: 'Home', href: paths.home.href() },
  { label: 'Search', href: paths.search.href() },
  { label: 'Profile' },
];

function parseId(raw: string | undefined): number {
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

function ProfileNotFound({ kind }: { kind: ProfileKind }) {
  return (
    <>
      <PageHeader title="Profile not found" breadcrumbs={CRUMBS} />
      <Alert color="gray" variant="light" title={`This ${kind} does not exist or is not available to you.`}>
        <Text size="sm">
          Check the link, or find the study again from the{' '}
          <Anchor component={Link} to={paths.search.href()} size="sm">
            study search
          </Anchor>
          .
        </Text>
      </Alert>
    </>
  );
}

function HeaderFacts({
  kind,
  studyId,
  info,
}: {
  kind: ProfileKind;
  studyId: number;
  info: ProfileResponse['info'];
}) {
  const cmi = (
    <Anchor component={Link} to={paths.studyDetails.href(studyId)} size="sm">
      {headerValue(info.c_mi_number)}
    </Anchor>
  );
  return (
    <Card withBorder radius="md" padding="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" verticalSpacing="sm">
        <Fact label="Project name">{headerValue(info.project_name)}</Fact>
        <Fact label="Client">{headerValue(info.client)}</Fact>
        {kind === 'fragrance' ? (
          <>
            <Fact label="CMI #">{cmi}</Fact>
            <Fact label="Product code">{headerValue(info.prod)}</Fact>
            <Fact label="6 Digit Code (SAP)">
              <FragranceCodeLink code={headerValue(info.code)} />
            </Fact>
            <Fact label="Developer #">{headerValue(info.ref_number)}</Fact>
          </>
        ) : (
          <Fact label="Project number / concept code">
            {cmi} / {headerValue(info.concept_code ?? info.prod)}
          </Fact>
        )}
        <Fact label="Category / product">
          {headerValue(info.category)} / {headerValue(info.product)}
        </Fact>
      </SimpleGrid>
    </Card>
  );
}

function describeCondition(condition: DemographicCondition, definitions: FieldDefinition[]): string {
  const definition = definitions.find((entry) => entry.field === condition.field);
  const label = definition?.label ?? condition.field;
  if (condition.filter.type === 'range') return `${label} ${condition.filter.from} to ${condition.filter.to}`;
  const value = condition.filter.value;
  return `${label}: ${definition?.options.find((option) => option.value === value)?.label ?? value}`;
}

function Footnotes({ binary }: { binary: boolean }) {
  return (
    <Stack gap={4} component="footer" aria-label="Notes">
      <Text size="sm" c="dimmed">
        {MESSAGES.harmonisedFootnote}.
      </Text>
      {binary ? (
        <Text size="sm" c="dimmed">
          {PROFILE_MESSAGES.binaryFootnote}
        </Text>
      ) : null}
      <Text size="sm" c="dimmed">
        Base n: the answers counted for a metric (hover a number to see it). A base below {LOW_BASE} is a low
        base.
      </Text>
      <Text size="sm" c="dimmed">
        Scores depend on the design method (Balanced Incomplete Block Design, Balance Complete Block Design or
        Monadic Sequential) and on the market.{' '}
        <Tooltip label={PROFILE_MESSAGES.marketAdvice} withArrow multiline w={240}>
          <ActionIcon
            component="span"
            role="button"
            tabIndex={0}
            variant="subtle"
            color="gray"
            size="xs"
            aria-label={PROFILE_MESSAGES.marketAdvice}
            style={{ display: 'inline-flex', verticalAlign: 'middle' }}
          >
            <IconInfoCircle size={14} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Text>
    </Stack>
  );
}

/**
 * The fragrance or concept profile (document 2 sections 2, 4, 5, 8 and 9): header, demographic filter,
 * table filter, performance (and for fragrances attributes, Genisys and time-series) data, footnotes
 * and the fragrance_profile.xlsx download.
 */
export function ProfilePage({ kind }: { kind: ProfileKind }) {
  const params = useParams();
  const studyId = parseId(params.id);
  const code = params.code ?? '';
  const [searchParams] = useSearchParams();
  const attributesParam = searchParams.get('attributes');
  const highlighted = useMemo(() => parseHighlighted(attributesParam), [attributesParam]);
  const { permissions } = useSession();
  const queryClient = useQueryClient();
  const [applied, setApplied] = useState<DemographicCondition[]>([]);
  const profile = useProfileQuery(kind, studyId, code, applied);
  const options = useDemographicOptionsQuery(studyId);
  const age = options.data?.age ?? { min: 18, max: 64 };
  const [form, setForm] = useState<FilterForm>(() => emptyFilterForm(age));
  const [filtering, setFiltering] = useState(false);
  const [noResult, setNoResult] = useState(false);
  const [tableFilter, setTableFilter] = useState('');
  const download = useDownloadProfileMutation();
  const canDownload = kind === 'fragrance' && (permissions.allowDownload || permissions.isAdmin);

  if (studyId === 0 || (profile.isError && isApiError(profile.error) && profile.error.status === 404)) {
    return <ProfileNotFound kind={kind} />;
  }
  if (profile.isError) {
    return (
      <>
        <PageHeader
          title={kind === 'fragrance' ? 'Fragrance Profile' : 'Concept Profile'}
          breadcrumbs={CRUMBS}
        />
        <Alert color="red" variant="light" title="The profile could not be loaded.">
          Please try again later.
        </Alert>
      </>
    );
  }
  if (profile.isPending) return <FullPageLoader minHeight="50vh" />;

  const data = profile.data;
  const definitions = options.data?.demographics ?? [];

  async function applyFilter(condition: DemographicCondition) {
    setFiltering(true);
    try {
      const found = await queryClient.fetchQuery(profileQueryOptions(kind, studyId, code, [condition]));
      if (found.result.length === 0) {
        // Document 2 section 8: keep the data shown and clear the filters.
        setNoResult(true);
        setForm(emptyFilterForm(age));
      } else {
        setNoResult(false);
        setApplied([condition]);
      }
    } catch {
      showAlert('danger', 'The filter could not be applied. Please try again later.');
    } finally {
      setFiltering(false);
    }
  }

  function clearFilter() {
    setForm(emptyFilterForm(age));
    setApplied([]);
    setNoResult(false);
  }

  const rows = filterProfileRows(data.result, tableFilter);
  const tables = splitProfileRows(rows);
  const unfiltered = splitProfileRows(data.result);
  const hasRows = data.result.length > 0;
  const trace = { productId: data.info.product_id, demographics: applied };
  const name = headerValue(data.info.name);
  const title = name === '-' ? `${kind === 'fragrance' ? 'Fragrance' : 'Concept'} ${data.info.prod}` : name;
  const noMatch = PROFILE_MESSAGES.noMatch;
  // Each score's percentile within the product's category norm, one click away.
  const norm = { product: { studyId, code, kind }, productLabel: title };

  return (
    <>
      <PageHeader
        title={title}
        breadcrumbs={CRUMBS}
        description={`${kind === 'fragrance' ? 'Fragrance profile' : 'Concept profile'} · code ${data.info.prod}`}
        actions={
          <>
            <Button
              component={Link}
              to={paths.studyDetails.href(studyId)}
              variant="default"
              leftSection={<IconArrowLeft size={18} aria-hidden="true" />}
            >
              {kind === 'fragrance' ? 'Study Details' : 'Concept Details'}
            </Button>
            {canDownload ? (
              <Button
                leftSection={<IconDownload size={18} aria-hidden="true" />}
                loading={download.isPending}
                disabled={!hasRows}
                onClick={() => download.mutate({ studyId, code, demographics: applied })}
              >
                Download
              </Button>
            ) : null}
          </>
        }
      />
      <Stack gap="lg">
        <HeaderFacts kind={kind} studyId={studyId} info={data.info} />
        <Section id="profile-filters" title="Filters">
          <Stack gap="md">
            <DemographicFilter
              allowed={data.filters}
              definitions={definitions}
              age={age}
              form={form}
              onChange={(next) => {
                setForm(next);
                setNoResult(false);
              }}
              onFilter={(condition) => void applyFilter(condition)}
              onClear={clearFilter}
              busy={filtering}
              unavailable={options.isError}
            />
            {options.isError ? (
              <Text size="sm" c="red">
                The demographic options could not be loaded.
              </Text>
            ) : null}
            {noResult ? (
              <Alert color="yellow" variant="light" role="alert" title="No data">
                {PROFILE_MESSAGES.noResult}
              </Alert>
            ) : null}
            <Text size="sm" aria-live="polite">
              Respondents shown:{' '}
              <Text span fw={600} size="sm">
                {applied.length === 0
                  ? 'all respondents'
                  : applied.map((condition) => describeCondition(condition, definitions)).join(', ')}
              </Text>
            </Text>
            <TextInput
              label="Filter tables"
              placeholder="Metric name or type"
              value={tableFilter}
              {...textLimit(tableFilter, TEXT_LIMITS.filterText)}
              onChange={(event) => setTableFilter(event.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              w={{ base: '100%', sm: 320 }}
            />
          </Stack>
        </Section>
        {!hasRows ? (
          <Alert color="gray" variant="light" title={PROFILE_MESSAGES.noData} />
        ) : (
          <>
            <Section id="performance" title="Performance data">
              <Stack gap="md">
                <ProfileTable
                  norm={norm}
                  trace={trace}
                  highlighted={highlighted}
                  label="Performance data"
                  kind="performance"
                  rows={tables.performance}
                  empty={unfiltered.performance.length > 0 ? noMatch : PROFILE_MESSAGES.noData}
                />
                {unfiltered.strength.length > 0 ? (
                  <Stack gap="xs">
                    <Title order={3} fz="md">
                      Strength
                    </Title>
                    <ProfileTable
                      norm={norm}
                      trace={trace}
                      highlighted={highlighted}
                      label="Strength"
                      kind="strength"
                      rows={tables.strength}
                      empty={noMatch}
                    />
                  </Stack>
                ) : null}
              </Stack>
            </Section>
            {kind === 'fragrance' ? (
              <>
                <Section id="attributes" title="Attributes data">
                  <ProfileTable
                    norm={norm}
                    trace={trace}
                    highlighted={highlighted}
                    label="Attributes data"
                    kind="attributes"
                    rows={tables.attributes}
                    empty={unfiltered.attributes.length > 0 ? noMatch : PROFILE_MESSAGES.noAttributes}
                  />
                </Section>
                {unfiltered.genisys.length > 0 ? (
                  <Section id="genisys" title="Genisys data">
                    <ProfileTable
                      norm={norm}
                      trace={trace}
                      highlighted={highlighted}
                      label="Genisys data"
                      kind="genisys"
                      rows={tables.genisys}
                      empty={noMatch}
                    />
                  </Section>
                ) : null}
                {unfiltered.other.length > 0 ? (
                  <Section id="other-metrics" title="Other metrics">
                    <ProfileTable
                      norm={norm}
                      trace={trace}
                      highlighted={highlighted}
                      label="Other metrics"
                      kind="other"
                      rows={tables.other}
                      empty={noMatch}
                    />
                  </Section>
                ) : null}
                <Section id="time-series" title="Time series">
                  <TimeSeriesChart series={data.time_series} rows={data.result} />
                </Section>
              </>
            ) : null}
          </>
        )}
        <Footnotes
          binary={hasBinaryScale(
            kind === 'fragrance' ? data.result : unfiltered.performance.concat(unfiltered.strength),
          )}
        />
      </Stack>
    </>
  );
}
