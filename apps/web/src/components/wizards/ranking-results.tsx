import {
  MESSAGES,
  RANKING_DECK_FILE_NAME,
  RANKING_MESSAGES,
  WIZARD_MESSAGES,
  type Aggregation,
  type RankingColumn,
  type RankingRequest,
  type RankingRow,
} from '@accord/contracts';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { showAlert } from '../../lib/alerts.ts';
import { useSession } from '../../lib/session.ts';
import { NormButton, type NormButtonMeasure } from '../norms/norm-button.tsx';
import { SlidesButton } from '../slides-button.tsx';
import { useDownloadRankingDeck, useQueuedRanking, useRankingJob } from './ranking-api.ts';
import { rankingSentence } from './ranking-sentence.ts';

/** A mean with 2 decimals, any other aggregation as a rounded percent (document 3 section 3.2). */
/** A ranking column ("metric.aggregation") as the norm button reads it. */
function normMeasureOf(column: RankingColumn): NormButtonMeasure {
  return {
    metric: column.key.slice(0, column.key.lastIndexOf('.')),
    aggregation: column.aggregation as Aggregation,
    label: `${column.label} ${column.aggregation_label}`,
  };
}

export function formatRankingValue(column: RankingColumn, value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  return column.aggregation === 'mean' ? value.toFixed(2) : `${Math.round(value * 100)} %`;
}

function profileHref(row: RankingRow): string {
  return row.kind === 'concept'
    ? paths.conceptProfile.href(row.study_id, row.prod)
    : paths.fragranceProfile.href(row.study_id, row.prod);
}

/**
 * The results of the Best/Worst Testers and Fragrance Attributes wizards on the wizard page, for users
 * without Advanced Analytics: the chosen criteria as a sentence, the ranked list with profile links
 * (opening in a new tab, as from every list), the harmonisation footnote, and a way back to the choices.
 */
export function RankingResults({
  request,
  footnote,
  onBack,
}: {
  request: RankingRequest;
  footnote?: string;
  onBack: () => void;
}) {
  const queued = useQueuedRanking(request);
  const job = useRankingJob(queued.data?.jobid ?? null);
  const status = job.data?.status;
  const ranking = status === 'SUCCESS' ? (job.data?.result?.json ?? null) : null;
  const failure = queued.isError
    ? queued.error.message
    : job.isError
      ? job.error.message
      : status === 'FAILURE' || status === 'REVOKED'
        ? (job.data?.error ?? RANKING_MESSAGES.failed)
        : null;
  const loading = !failure && !ranking;
  const what = request.kind === 'testers' ? request.type : 'fragrances';
  const { permissions } = useSession();
  const slides = useDownloadRankingDeck();
  const jobId = queued.data?.jobid ?? null;

  const alerted = useRef<string | null>(null);
  useEffect(() => {
    if (failure && alerted.current !== failure) {
      alerted.current = failure;
      showAlert('danger', failure);
    }
  }, [failure]);

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
            <Title order={2} size="h4" ref={heading} tabIndex={-1}>
              Results
            </Title>
            <Text style={{ overflowWrap: 'anywhere' }}>{rankingSentence(request)}</Text>
          </Stack>
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onBack}>
            Change choices
          </Button>
        </Group>
        <div aria-live="polite">
          {loading ? (
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text size="sm">{RANKING_MESSAGES.loading}</Text>
            </Group>
          ) : failure ? (
            <Alert color="red" title={RANKING_MESSAGES.failed}>
              {failure}
            </Alert>
          ) : !ranking || ranking.rows.length === 0 ? (
            <Text c="dimmed">
              {what === 'concepts' ? WIZARD_MESSAGES.noResults : WIZARD_MESSAGES.noFragrances}
            </Text>
          ) : (
            <Stack gap="xs">
              <Group justify="space-between" gap="sm">
                <Text size="sm" c="dimmed">
                  {ranking.rows.length} {ranking.rows.length === 1 ? what.slice(0, -1) : what}
                </Text>
                {permissions.allowDownload && jobId ? (
                  <SlidesButton
                    fileName={RANKING_DECK_FILE_NAME}
                    label="Download slides of the results"
                    loading={slides.isPending}
                    onClick={() => slides.mutate(jobId)}
                  />
                ) : null}
              </Group>
              <Table.ScrollContainer minWidth={320}>
                <Table striped highlightOnHover fz="sm" aria-label={rankingSentence(request)}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={64}>Rank</Table.Th>
                      <Table.Th>{what === 'concepts' ? 'Concept' : 'Fragrance'}</Table.Th>
                      <Table.Th visibleFrom="sm">CMI #</Table.Th>
                      {ranking.columns.map((column) => (
                        <Table.Th key={column.key} ta="right">
                          {column.label} {column.aggregation_label}
                        </Table.Th>
                      ))}
                      <Table.Th w={56}>Norm</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {ranking.rows.map((row) => (
                      <Table.Tr key={row.id}>
                        <Table.Td>{row.rank}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>
                          <Anchor component={Link} to={profileHref(row)} target="_blank">
                            {row.name ?? row.prod}
                          </Anchor>
                          <Text size="xs" c="dimmed">
                            {row.name ? row.prod : null}
                            <Text span hiddenFrom="sm" inherit>
                              {row.name ? ' · ' : ''}
                              <span style={{ whiteSpace: 'nowrap' }}>{row.c_mi_number}</span>
                            </Text>
                          </Text>
                        </Table.Td>
                        <Table.Td visibleFrom="sm">{row.c_mi_number}</Table.Td>
                        {ranking.columns.map((column) => (
                          <Table.Td key={column.key} ta="right" style={{ whiteSpace: 'nowrap' }}>
                            {formatRankingValue(column, row.values[column.key])}{' '}
                            <Text span size="xs" c="dimmed">
                              (n = {row.bases[column.key] ?? 0})
                            </Text>
                          </Table.Td>
                        ))}
                        <Table.Td>
                          <NormButton
                            product={{ id: row.id, kind: row.kind }}
                            measures={ranking.columns.map(normMeasureOf)}
                            productLabel={row.name ?? row.prod}
                          />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Stack>
          )}
        </div>
        {footnote ? (
          <Text size="sm" c="dimmed">
            * {footnote}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {MESSAGES.harmonisedFootnote}
        </Text>
      </Stack>
    </Paper>
  );
}
