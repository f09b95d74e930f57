/**
 * "How was this computed?" for a driver figure: the studies behind it (named for staff and for the
 * caller's own client, "Another client's study" otherwise), each study's own figure and respondents,
 * and the computation in words. A dialog: focus moves in, Escape closes it, focus returns.
 */
import type { DriverAttribute, DriversResponse, DriverStrength } from '@accord/contracts';
import { ActionIcon, Anchor, Drawer, List, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { TRACE_TITLE } from '../../../components/trace/trace-drawer.tsx';
import { paths } from '../../../config/paths.ts';

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

export function DriverTrace({
  drivers,
  attribute,
  strength,
}: {
  drivers: DriversResponse;
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
              <>
                <Text size="sm">
                  Pooled r = {attribute.r.toFixed(3)} from {attribute.studies} studies (
                  {attribute.respondents.toLocaleString('en-GB')} respondents); I²{' '}
                  {Math.round(attribute.i2 * 100)} %, τ² {attribute.tau2.toFixed(4)}. {attribute.agreement}.
                </Text>
                <Table withTableBorder striped fz="sm" aria-label={`Studies behind ${label}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Study</Table.Th>
                      <Table.Th ta="right">r</Table.Th>
                      <Table.Th ta="right">Respondents</Table.Th>
                      <Table.Th ta="right">Products</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {attribute.per_study.map((study, index) => (
                      <Table.Tr key={`${study.study.id ?? 'other'}-${index}`}>
                        <Table.Td>
                          <StudyName study={study.study} />
                        </Table.Td>
                        <Table.Td ta="right">{study.r.toFixed(3)}</Table.Td>
                        <Table.Td ta="right">{study.n}</Table.Td>
                        <Table.Td ta="right">{study.products}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </>
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
