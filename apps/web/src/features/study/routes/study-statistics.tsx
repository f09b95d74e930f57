import {
  BINARY_OPTIONS,
  DEFAULT_TEST_TYPES,
  defaultMultipleComparisons,
  PRODUCT_ORDER_OPTIONS,
  STATISTICS_ALERT_MS,
  STATISTICS_MESSAGES,
  STATISTICS_TEST_TYPES,
  TEST_TYPE_LABELS,
  type BinaryOption,
  type MultipleComparisons,
  type ProductOrderOption,
  type StatisticsResults,
  type StatisticsTestType,
} from '@accord/contracts';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { errorMessage, statisticsApi } from '../../../components/statistics/statistics-api.ts';
import { StatisticsResultsView } from '../../../components/statistics/statistics-results.tsx';
import {
  multipleComparisonOptions,
  tukeyAllowed,
} from '../../../components/statistics/multiple-comparisons.ts';
import { paths } from '../../../config/paths.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { studyCrumbs } from '../utils/study-crumbs.ts';
import { useStudyQuery } from '../api/get-study.ts';
import { useSession } from '../../../lib/session.ts';

const TEST_OPTIONS = STATISTICS_TEST_TYPES.map((type) => ({ value: type, label: TEST_TYPE_LABELS[type] }));

const ORDER_LIST_LABELS = {
  product_code_order: 'Product code order',
  benchmark_product_code_order: 'Benchmark product code order',
  candidate_product_code_order: 'Candidate product code order',
} as const;

/** /study/{id}/statistics: the statistics generator on the study's own results, with the filter card. */
export function Component() {
  const { id = '' } = useParams();
  const studyId = Number(id);
  const { permissions } = useSession();
  // The breadcrumb names the study by its CMI number, as every other study page does.
  const study = useStudyQuery(studyId);
  const metrics = useQuery({
    queryKey: ['study-metrics', studyId],
    queryFn: () => statisticsApi.studyMetrics(studyId),
    enabled: Number.isInteger(studyId) && studyId > 0,
  });
  const questions = (metrics.data?.metrics ?? []).map((metric) => ({
    value: metric.value,
    label: metric.label,
  }));
  const studyProducts = useQuery({
    queryKey: ['study-statistics-products', studyId],
    queryFn: () => statisticsApi.studyProducts(studyId),
    enabled: Number.isInteger(studyId) && studyId > 0,
  });
  const categoryOptions = (studyProducts.data?.categories ?? []).map((category) => ({
    value: category.value,
    label: `${category.label} (${category.count})`,
  }));
  const [categories, setCategories] = useState<string[]>([]);
  // The category filter narrows the products the order lists offer, as it narrows the statistics.
  const inCategories = new Set(
    (studyProducts.data?.products ?? [])
      .filter((product) => product.category !== null && categories.includes(product.category))
      .map((product) => product.code),
  );
  // The products of the test: a fragrance test's concepts are not among them.
  const tested = new Set((studyProducts.data?.products ?? []).map((product) => product.code));
  const products = (metrics.data?.product_codes ?? []).filter(
    (product) =>
      (!studyProducts.data || tested.has(product.value)) &&
      (categories.length === 0 || inCategories.has(product.value)),
  );
  // The design found in the study's answers preselects "paired" until the user chooses.
  const design = studyProducts.data?.design ?? null;
  const [pairedChoice, setPairedChoice] = useState<boolean | null>(null);
  const paired = pairedChoice ?? design?.paired ?? true;
  const [binary, setBinary] = useState<BinaryOption>('No binary questions');
  const [main, setMain] = useState<string | null>(null);
  const [order, setOrder] = useState<ProductOrderOption | null>('Unspecified Product Order');
  const [productOrder, setProductOrder] = useState<string[]>([]);
  const [strength, setStrength] = useState<string[]>([]);
  const [cpv, setCpv] = useState<string[]>([]);
  const [names, setNames] = useState(true);
  const [charts, setCharts] = useState(true);
  const [tests, setTests] = useState<StatisticsTestType[]>(DEFAULT_TEST_TYPES);
  const [regression, setRegression] = useState(false);
  const [parametric, setParametric] = useState(false);
  // Null: the default for the tests (Tukey HSD for parametric two-tailed tests, else Holm).
  const [multiple, setMultiple] = useState<MultipleComparisons | null>(null);
  // Tukey HSD needs parametric, two-tailed tests: a choice no longer allowed falls back to the default.
  const multipleShown: MultipleComparisons =
    multiple === null || (multiple === 'tukey_hsd' && !tukeyAllowed(parametric, tests))
      ? defaultMultipleComparisons(parametric, tests)
      : multiple;
  // After a refused search, each required field left empty says so under itself.
  const [attempted, setAttempted] = useState(false);
  const [loading, setLoading] = useState(false);
  const [results, setResults] = useState<StatisticsResults | null>(null);
  // Summary cells are traced by product id (a code two products share is left out) and by metric:
  // only metrics read from one question of the study, as the summary reads them.
  const idsByCode = new Map<string, number[]>();
  for (const product of studyProducts.data?.products ?? [])
    idsByCode.set(product.code, [...(idsByCode.get(product.code) ?? []), product.id]);
  const summaryTrace = {
    productIds: (results?.product_codes ?? []).map((code) => {
      const ids = idsByCode.get(code) ?? [];
      return ids.length === 1 ? ids[0]! : null;
    }),
    metrics: new Set(
      (metrics.data?.metrics ?? [])
        .filter((metric) => metric.used_in.length === 1)
        .map((metric) => metric.value),
    ),
  };
  const [chartsShown, setChartsShown] = useState(true);
  const [downloading, setDownloading] = useState<string | null>(null);

  const listField =
    order === 'Specified Product Order'
      ? 'product_code_order'
      : order === 'Specified Benchmark Order Only'
        ? 'benchmark_product_code_order'
        : order === 'Specified Candidate Order Only'
          ? 'candidate_product_code_order'
          : null;

  const search = async () => {
    setAttempted(true);
    const problems: string[] = [];
    // The list names each field by its label on the card, one a line.
    if (!main) problems.push(STATISTICS_MESSAGES.missingValue('Main question column'));
    if (!order) problems.push(STATISTICS_MESSAGES.missingValue('Order of products'));
    if (tests.length === 0) problems.push(STATISTICS_MESSAGES.emptyArray('Test types'));
    if (listField && productOrder.length === 0)
      problems.push(STATISTICS_MESSAGES.emptyArray(ORDER_LIST_LABELS[listField]));
    if (problems.length > 0) {
      showAlert('danger', problems.join('\n'), STATISTICS_ALERT_MS, STATISTICS_MESSAGES.missingValues);
      return;
    }
    setLoading(true);
    try {
      const answer = await statisticsApi.studyStatistics(studyId, {
        product_order: order ?? 'Unspecified Product Order',
        main_question_column: main ?? '',
        strength_questions: strength,
        cpv_question: cpv,
        test_types: tests,
        paired,
        parametric,
        multiple_comparisons: multipleShown,
        regression,
        replace_product_codes: names,
        charts,
        binary_option: binary,
        category: categories,
        ...(listField ? { [listField]: productOrder } : {}),
      });
      setResults(answer);
      setChartsShown(charts);
    } catch (error) {
      showAlert('danger', errorMessage(error), STATISTICS_ALERT_MS);
    } finally {
      setLoading(false);
    }
  };

  const download = async (file: string) => {
    if (!results) return;
    setDownloading(file);
    try {
      await statisticsApi.download(results.study_folder_name, file);
    } catch (error) {
      showAlert('danger', errorMessage(error), STATISTICS_ALERT_MS);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <>
      <PageHeader
        title={paths.studyStatistics.title}
        breadcrumbs={studyCrumbs(id, paths.studyStatistics.title, study.data?.c_mi_number)}
        description={
          <Text span>
            Significance letters, strength questions, correlations and regression from this study&apos;s
            results. {/* The Statistic Generator is open to admins and analytics users only. */}
            {permissions.isAdmin || permissions.canAccessAnalytics ? (
              <Anchor component={Link} to={paths.rdfUploadId.href(id)} underline="always">
                Open in the Statistic Generator
              </Anchor>
            ) : null}
          </Text>
        }
      />
      <Stack gap="lg">
        <Card withBorder radius="md" padding="lg" component="section" aria-label="Statistics filters">
          {metrics.isPending ? (
            <Loader size="sm" role="status" aria-label="Loading the study's questions" />
          ) : metrics.isError ? (
            <Text c="red">{errorMessage(metrics.error)}</Text>
          ) : (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                <Select
                  label="Main question column"
                  required
                  data={questions}
                  value={main}
                  onChange={setMain}
                  searchable
                  nothingFoundMessage="No mapped questions"
                  error={
                    attempted && !main ? STATISTICS_MESSAGES.missingValue('Main question column') : undefined
                  }
                />
                <Select
                  label="Order of products"
                  required
                  data={PRODUCT_ORDER_OPTIONS.map((value) => ({ value, label: value }))}
                  value={order}
                  onChange={(value) => {
                    setOrder(value as ProductOrderOption | null);
                    setProductOrder([]);
                  }}
                  error={
                    attempted && !order ? STATISTICS_MESSAGES.missingValue('Order of products') : undefined
                  }
                />
                {listField ? (
                  <MultiSelect
                    label={ORDER_LIST_LABELS[listField]}
                    data={products}
                    value={productOrder}
                    onChange={setProductOrder}
                    searchable
                    error={
                      attempted && productOrder.length === 0
                        ? STATISTICS_MESSAGES.emptyArray(ORDER_LIST_LABELS[listField])
                        : undefined
                    }
                  />
                ) : null}
                {categoryOptions.length > 0 ? (
                  <MultiSelect
                    label="Category"
                    description="Fragrance families: only their fragrances enter the statistics"
                    placeholder={categories.length === 0 ? 'All products' : undefined}
                    data={categoryOptions}
                    value={categories}
                    onChange={(value) => {
                      setCategories(value);
                      setProductOrder([]);
                    }}
                    searchable
                    clearable
                  />
                ) : null}
                <Select
                  label="Questions on binary scale"
                  data={BINARY_OPTIONS.map((value) => ({ value, label: value }))}
                  value={binary}
                  onChange={(value) => setBinary((value as BinaryOption | null) ?? 'No binary questions')}
                  allowDeselect={false}
                />
                <MultiSelect
                  label="Strength questions"
                  data={questions}
                  value={strength}
                  onChange={setStrength}
                  searchable
                />
                <MultiSelect
                  label="CPV (Consumer Perceived Value) questions"
                  data={questions}
                  value={cpv}
                  onChange={setCpv}
                  searchable
                />
                <MultiSelect
                  label="Test types"
                  data={TEST_OPTIONS}
                  value={tests}
                  onChange={(value) => setTests(value as StatisticsTestType[])}
                  error={
                    attempted && tests.length === 0 ? STATISTICS_MESSAGES.emptyArray('Test types') : undefined
                  }
                />
                <Select
                  label="Design"
                  description={design?.text}
                  data={[
                    { value: 'paired', label: 'Paired' },
                    { value: 'unpaired', label: 'Unpaired' },
                  ]}
                  value={paired ? 'paired' : 'unpaired'}
                  onChange={(value) => setPairedChoice(value === null ? null : value === 'paired')}
                  allowDeselect={false}
                />
                <Select
                  label="Multiple comparisons"
                  description="Tukey HSD needs parametric, two-tailed tests."
                  data={multipleComparisonOptions(parametric, tests)}
                  value={multipleShown}
                  onChange={(value) => setMultiple(value as MultipleComparisons | null)}
                  allowDeselect={false}
                />
              </SimpleGrid>
              <Group gap="xl">
                <Switch
                  label="Replace product codes by names"
                  checked={names}
                  onChange={(event) => setNames(event.currentTarget.checked)}
                />
                <Switch
                  label="Charts"
                  checked={charts}
                  onChange={(event) => setCharts(event.currentTarget.checked)}
                />
                <Switch
                  label="Regression"
                  checked={regression}
                  onChange={(event) => setRegression(event.currentTarget.checked)}
                />
                <Switch
                  label="Parametric"
                  checked={parametric}
                  onChange={(event) => setParametric(event.currentTarget.checked)}
                />
              </Group>
              {design && design.design !== null && paired !== design.paired ? (
                <Alert color="yellow" variant="light" role="status" p="xs">
                  <Text size="sm">
                    {paired
                      ? 'Each respondent rated one product: paired tests are not possible, the products will be compared as independent groups.'
                      : "Respondents rated several products: unpaired tests treat each respondent's answers to different products as independent, which they are not."}
                  </Text>
                </Alert>
              ) : null}
              <Group justify="flex-end">
                <Button
                  leftSection={<IconSearch size={16} aria-hidden="true" />}
                  onClick={() => void search()}
                  loading={loading}
                >
                  Search
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
        {results ? (
          <StatisticsResultsView
            results={results}
            chartsRequested={chartsShown}
            downloading={downloading}
            onDownload={(file) => void download(file)}
            summaryTrace={summaryTrace}
          />
        ) : null}
      </Stack>
    </>
  );
}
