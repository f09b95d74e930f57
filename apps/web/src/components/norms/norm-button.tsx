import {
  ActionIcon,
  Alert,
  Anchor,
  Group,
  Loader,
  Popover,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconChartHistogram } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { baseName, useChosenNormBase } from './chosen-base.ts';
import { formatNormScore, rankText } from './norm-format.ts';
import { useNormOptions, useNormRank, type NormMeasure, type NormProduct } from './norms-api.ts';

/** A measure the button may look up, with its name on screen. */
export type NormButtonMeasure = NormMeasure & { label: string };

/**
 * The norm of a product score, one click away: a small button beside the score opens a popover that
 * reads the product's percentile within its own category norm (or the base last chosen on the norms
 * screen), names the base ("Fabric Care, 2011-2026: 368 fragrances in 47 studies") and links to the
 * norms screen. Nothing is read before the click. Measures the metric does not offer are left out.
 */
export function NormButton({
  product,
  measures,
  productLabel,
}: {
  product: NormProduct;
  /** The scores shown beside the button (first: the one read first). */
  measures: readonly NormButtonMeasure[];
  /** The product's name, for the button's accessible name. */
  productLabel: string;
}) {
  const [opened, setOpened] = useState(false);
  const titleId = useId();
  const options = useNormOptions();
  const offered = options.data
    ? measures.filter((measure) =>
        options.data.metrics
          .find((metric) => metric.name === measure.metric)
          ?.aggregations.some((entry) => entry.value === measure.aggregation),
      )
    : measures;
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const measure =
    offered.find((entry) => `${entry.metric}.${entry.aggregation}` === chosenKey) ?? offered[0] ?? null;
  const chosenBase = useChosenNormBase();
  const [useChosen, setUseChosen] = useState(false);
  const base = useChosen && chosenBase ? chosenBase : null;
  const rank = useNormRank(product, measure, base, opened);
  if (options.data && offered.length === 0) return null;
  const norm = rank.data?.norm;

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={340}
      position="bottom-end"
      withArrow
      shadow="md"
      trapFocus
    >
      <Popover.Target>
        <Tooltip label="Percentile within its norm" withArrow openDelay={200}>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Norm of ${productLabel}${measure ? `: ${measure.label}` : ''}`}
            aria-expanded={opened}
            onClick={() => setOpened((value) => !value)}
            data-testid="norm-button"
          >
            <IconChartHistogram size={16} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-labelledby={titleId}>
        <Stack gap="xs" data-testid="norm-popover">
          <Text fw={600} size="sm" id={titleId}>
            Norm of {productLabel}
          </Text>
          {offered.length > 1 ? (
            <Select
              size="xs"
              label="Score"
              data={offered.map((entry) => ({
                value: `${entry.metric}.${entry.aggregation}`,
                label: entry.label,
              }))}
              value={measure ? `${measure.metric}.${measure.aggregation}` : null}
              onChange={setChosenKey}
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
            />
          ) : measure ? (
            <Text size="xs" c="dimmed">
              {measure.label}
            </Text>
          ) : null}
          {chosenBase ? (
            <SegmentedControl
              size="xs"
              fullWidth
              aria-label="Base of the norm"
              value={useChosen ? 'chosen' : 'own'}
              onChange={(value) => setUseChosen(value === 'chosen')}
              data={[
                { value: 'own', label: 'Own category' },
                { value: 'chosen', label: baseName(chosenBase) },
              ]}
            />
          ) : null}
          {rank.isPending ? (
            <Group gap="xs">
              <Loader size="xs" role="status" aria-label="Reading the norm" />
              <Text size="sm" c="dimmed">
                Reading the norm…
              </Text>
            </Group>
          ) : rank.isError ? (
            <Alert color="red" variant="light" p="xs">
              {rank.error.message}
            </Alert>
          ) : norm ? (
            <>
              {norm.status === 'available' ? (
                rank.data.rank !== null ? (
                  <Text size="lg" fw={700} data-testid="norm-rank">
                    {rankText(rank.data.rank)}
                  </Text>
                ) : (
                  <Text size="sm">This {norm.base.kind} has no score on this metric.</Text>
                )
              ) : (
                <Alert color={norm.status === 'withheld' ? 'orange' : 'gray'} variant="light" p="xs">
                  <Text size="sm">{norm.reason}</Text>
                </Alert>
              )}
              {rank.data.product.score !== null ? (
                <Text size="sm">
                  Score {formatNormScore(norm, rank.data.product.score)} (n = {rank.data.product.n})
                </Text>
              ) : null}
              <Text size="sm" data-testid="norm-base">
                Base: {norm.base.description}
              </Text>
              {norm.percentiles ? (
                <Text size="xs" c="dimmed">
                  P25 {formatNormScore(norm, norm.percentiles.p25)} · Median{' '}
                  {formatNormScore(norm, norm.percentiles.p50)} · P75{' '}
                  {formatNormScore(norm, norm.percentiles.p75)}
                </Text>
              ) : null}
              <Anchor
                component={Link}
                size="sm"
                to={paths.norms.href({
                  category: norm.base.category,
                  region: norm.base.region,
                  product_type: norm.base.product_type,
                  methodology: norm.base.methodology,
                  year_from: norm.base.year_from,
                  year_to: norm.base.year_to,
                  kind: norm.base.kind,
                  metric: norm.metric.name,
                  aggregation: norm.aggregation.value,
                })}
              >
                Open in Norms
              </Anchor>
            </>
          ) : null}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
