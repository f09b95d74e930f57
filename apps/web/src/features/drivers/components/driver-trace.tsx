/**
 * "How was this computed?" for a driver figure. An attribute's pooled correlation is recomputed on the
 * server from its paired answers (GET /drivers/trace) and shown beside the figure on screen: per study
 * its correlation, respondents and products, the counts behind the pool, and the answers as csv for
 * users with the download right. A strength question lists its studies' penalties. Studies are named
 * for staff and for the caller's own client, "Another client's study" otherwise. A dialog: focus moves
 * in, Escape closes it, focus returns.
 */
import type {
  DriverAttribute,
  DriversResponse,
  DriverStrength,
  DriverTraceResponse,
} from '@accord/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Drawer,
  Group,
  List,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconListSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { DOWNLOAD_ANSWERS, TRACE_TITLE } from '../../../components/trace/trace-drawer.tsx';
import { paths } from '../../../config/paths.ts';
import { useDownloadDriverAnswers, useDriverTrace, type DriversChoice } from '../api/drivers-api.ts';

function StudyName({ study }: { study: { id: number | null; label: string } }) {
  return study.id === null ? (
    <Text size="sm" c="dimmed" span>
      {study.label}
    </Text>
  ) : (
    <Anchor component={Link} to={paths.studyDetails.href(study.id)} size="sm">
      {study.label}
    </Anchor>
  );
}

const interval = (low: number | null, high: number | null) =>
  low === null || high === null ? '-' : `${low.toFixed(3)} to ${high.toFixed(3)}`;
const count = (n: number) => n.toLocaleString('en-GB');

/** An attribute's figure recomputed from its answers, study by study, beside the screen's. */
function AttributeRecomputed({ trace, query }: { trace: DriverTraceResponse; query: DriversChoice }) {
  const download = useDownloadDriverAnswers();
  const label = trace.attribute.label;
  const { shown, recomputed } = trace;
  return (
    <>
      <Table.ScrollContainer minWidth={420}>
        <Table withTableBorder fz="sm" aria-label={`Pooled correlation of ${label}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pooled figure</Table.Th>
              <Table.Th ta="right">r</Table.Th>
              <Table.Th ta="right">95 % interval</Table.Th>
              <Table.Th ta="right">Studies</Table.Th>
              <Table.Th ta="right">Respondents</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(
              [
                ['On screen', shown],
                ['Recomputed from the answers', recomputed],
              ] as const
            ).map(([name, figure]) => (
              <Table.Tr key={name}>
                <Table.Th scope="row" fw={500}>
                  {name}
                </Table.Th>
                <Table.Td ta="right">{figure.r.toFixed(6)}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {interval(figure.ci_low, figure.ci_high)}
                </Table.Td>
                <Table.Td ta="right">{figure.studies}</Table.Td>
                <Table.Td ta="right">{count(figure.respondents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group gap="xs">
        <Badge color={trace.equal ? 'teal' : 'red'} variant="light" data-testid="driver-trace-equal">
          {trace.equal ? 'Equal' : 'Different'}
        </Badge>
        <Text size="sm" data-testid="driver-trace-counts">
          From {count(recomputed.pairs)} paired answers of {count(recomputed.respondents)} respondents to{' '}
          {recomputed.products} products in {recomputed.studies} studies.
        </Text>
      </Group>
      {trace.equal ? null : (
        <Alert color="red" variant="light" role="status">
          The answers have changed since the drivers were computed: reload the page to read them again.
        </Alert>
      )}
      <Table.ScrollContainer minWidth={420}>
        <Table withTableBorder striped fz="sm" aria-label={`Studies behind ${label}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Study</Table.Th>
              <Table.Th ta="right">r</Table.Th>
              <Table.Th ta="right">Respondents</Table.Th>
              <Table.Th ta="right">Products (r of each)</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {trace.studies.map((study, index) => {
              const rs = study.products
                .map((product) => product.r)
                .filter((value): value is number => value !== null);
              return (
                <Table.Tr key={`${study.study.id ?? 'other'}-${index}`}>
                  <Table.Td>
                    <StudyName study={study.study} />
                  </Table.Td>
                  <Table.Td ta="right">{study.r.toFixed(3)}</Table.Td>
                  <Table.Td ta="right">{study.respondents}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {study.products.length}
                    {rs.length > 0 ? ` (${Math.min(...rs).toFixed(2)} to ${Math.max(...rs).toFixed(2)})` : ''}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {trace.can_download ? (
        <Stack gap={4}>
          <Group>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              loading={download.isPending}
              onClick={() => download.mutate({ ...query, attribute: trace.attribute.name })}
            >
              {DOWNLOAD_ANSWERS}
            </Button>
            <Text size="xs">
              One row per respondent and product: study, respondent, product, {trace.liking.label} and {label}
              .
            </Text>
          </Group>
          {trace.download_note ? (
            <Text size="xs" c="dimmed">
              {trace.download_note}
            </Text>
          ) : null}
        </Stack>
      ) : null}
    </>
  );
}

/** The recomputation of an attribute, read while the drawer is open. */
function AttributeTrace({ attribute, query }: { attribute: DriverAttribute; query: DriversChoice }) {
  const trace = useDriverTrace({ ...query, attribute: attribute.metric.name });
  if (trace.isPending)
    return (
      <Group gap="sm">
        <Loader size="sm" role="status" aria-label="Recomputing from the answers" />
        <Text size="sm" c="dimmed">
          Recomputing from the answers…
        </Text>
      </Group>
    );
  if (trace.isError)
    return (
      <Alert color="red" variant="light" title="The computation could not be read">
        {trace.error.message}
      </Alert>
    );
  return <AttributeRecomputed trace={trace.data} query={query} />;
}

export function DriverTrace({
  drivers,
  query,
  attribute,
  strength,
}: {
  drivers: DriversResponse;
  query: DriversChoice;
  attribute?: DriverAttribute;
  strength?: DriverStrength;
}) {
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const label = (attribute ?? strength)!.metric.label;
  const close = () => {
    setOpened(false);
    window.requestAnimationFrame(() => button.current?.focus());
  };
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  const drop = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  return (
    <>
      <Tooltip label={TRACE_TITLE} withArrow openDelay={300}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="xs"
          aria-label={`${TRACE_TITLE} ${label}`}
          aria-haspopup="dialog"
          ref={button}
          onClick={() => setOpened(true)}
        >
          <IconListSearch size={14} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      {opened ? (
        <Drawer
          opened
          onClose={close}
          position="right"
          size="lg"
          title={
            <Title order={2} size="h4">
              {TRACE_TITLE}
            </Title>
          }
          closeButtonProps={{ 'aria-label': `Close: ${TRACE_TITLE}` }}
          styles={{ content: { maxWidth: '100vw' } }}
        >
          <Stack gap="md" data-testid="driver-trace">
            <Text fw={600}>
              {label} and {drivers.liking.label}
            </Text>
            <Text size="sm">Base: {drivers.base.description}</Text>
            {attribute ? (
              <AttributeTrace attribute={attribute} query={query} />
            ) : strength ? (
              <Table withTableBorder striped fz="sm" aria-label={`Studies behind ${label}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Study</Table.Th>
                    <Table.Th ta="right">Answers</Table.Th>
                    <Table.Th ta="right">Weak or too weak: share, drop</Table.Th>
                    <Table.Th ta="right">Strong or too strong: share, drop</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {strength.per_study.map((study, index) => (
                    <Table.Tr key={`${study.study.id ?? 'other'}-${index}`}>
                      <Table.Td>
                        <StudyName study={study.study} />
                      </Table.Td>
                      <Table.Td ta="right">{study.n}</Table.Td>
                      <Table.Td ta="right">
                        {percent(study.too_weak.share)}, {drop(study.too_weak.drop)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {percent(study.too_strong.share)}, {drop(study.too_strong.drop)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : null}
            <List size="xs" c="dimmed" spacing={4}>
              {drivers.method.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          </Stack>
        </Drawer>
      ) : null}
    </>
  );
}
