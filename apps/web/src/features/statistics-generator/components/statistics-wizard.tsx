import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import {
  BINARY_OPTIONS,
  DEFAULT_TEST_TYPES,
  defaultMultipleComparisons,
  PRODUCT_ORDER_OPTIONS,
  STATISTICS_ALERT_MS,
  STATISTICS_EXISTING_START_STEP,
  STATISTICS_MESSAGES,
  STATISTICS_RESULTS_STEP,
  STATISTICS_TEST_TYPES,
  TEST_TYPE_LABELS,
  type BinaryOption,
  type MultipleComparisons,
  type ProductOrderOption,
  type StatisticsDesign,
  type StatisticsForm,
  type StatisticsResults,
  type StatisticsTestType,
} from '@accord/contracts';
import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  Loader,
  MultiSelect,
  Radio,
  Select,
  Stack,
  Stepper,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileTypeCsv } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { StatisticsResultsView } from '../../../components/statistics/statistics-results.tsx';
import { errorMessage, statisticsApi } from '../../../components/statistics/statistics-api.ts';
import {
  multipleComparisonOptions,
  tukeyAllowed,
} from '../../../components/statistics/multiple-comparisons.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { FIELD_LABELS, navigation, ORDER_LIST_OF, stepProblems } from '../wizard-validation.ts';

type Option = { value: string; label: string };

const STEP_LABELS = ['Data', 'Likert scale', 'Tests', 'Products and questions', 'Regression', 'Output'];
const ORDER_LIST_LABELS = {
  product_code_order: FIELD_LABELS.product_code_order,
  benchmark_product_code_order: FIELD_LABELS.benchmark_product_code_order,
  candidate_product_code_order: FIELD_LABELS.candidate_product_code_order,
} as const;
const TEST_OPTIONS = STATISTICS_TEST_TYPES.map((type) => ({ value: type, label: TEST_TYPE_LABELS[type] }));

interface WizardState {
  study_name: string;
  data_input: File | null;
  likert_scale: File | null;
  regression_input: File | null;
  replace_product_input: File | null;
  folder_name: string | null;
  product_code: string | null;
  paired: boolean;
  parametric: boolean;
  product_order: ProductOrderOption | null;
  main_question_column: string | null;
  strength_questions: string[];
  test_types: StatisticsTestType[];
  /** The user's choice; null: the default for the tests (Tukey HSD for parametric two-tailed, else Holm). */
  multiple_comparisons: MultipleComparisons | null;
  cpv_question: string[];
  product_code_order: string[];
  benchmark_product_code: string[];
  benchmark_product_code_order: string[];
  candidate_product_code_order: string[];
  regression: boolean;
  replace_product_codes: boolean;
  charts: boolean;
  binary_option: BinaryOption;
}

const INITIAL: WizardState = {
  study_name: '',
  data_input: null,
  likert_scale: null,
  regression_input: null,
  replace_product_input: null,
  folder_name: null,
  product_code: null,
  paired: true,
  parametric: false,
  product_order: null,
  main_question_column: null,
  strength_questions: [],
  test_types: DEFAULT_TEST_TYPES,
  multiple_comparisons: null,
  cpv_question: [],
  product_code_order: [],
  benchmark_product_code: [],
  benchmark_product_code_order: [],
  candidate_product_code_order: [],
  regression: false,
  replace_product_codes: false,
  charts: true,
  binary_option: 'No binary questions',
};

function CsvInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
}) {
  return (
    <FileInput
      label={label}
      aria-label={value ? `${label}: ${value.name}` : label}
      placeholder="Choose a .csv file"
      accept=".csv,text/csv"
      clearable
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      value={value}
      leftSection={<IconFileTypeCsv size={18} aria-hidden="true" />}
      onChange={(file) => {
        if (file && !file.name.toLowerCase().endsWith('.csv')) {
          showAlert('danger', STATISTICS_MESSAGES.invalidExtension, STATISTICS_ALERT_MS);
          onChange(null);
          return;
        }
        onChange(file);
      }}
      maw={480}
    />
  );
}

/** The Statistic Generator wizard: six steps, then results (document 3 sections 2.11 and 4.8). */
export function StatisticsWizard({ studyId }: { studyId: number | null }) {
  const existing = studyId !== null;
  const [step, setStep] = useState(existing ? STATISTICS_EXISTING_START_STEP : 0);
  const [state, setState] = useState<WizardState>(
    existing ? { ...INITIAL, product_code: 'product_code' } : INITIAL,
  );
  const [loading, setLoading] = useState(false);
  const [columns, setColumns] = useState<Option[]>([]);
  const [questions, setQuestions] = useState<Option[]>([]);
  const [productCodes, setProductCodes] = useState<Option[]>([]);
  const [results, setResults] = useState<StatisticsResults | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  // The design of the data (who rated which product): it preselects "paired" on step 2.
  const [design, setDesign] = useState<StatisticsDesign | null>(null);
  const applyDesign = (found: StatisticsDesign | null) => {
    setDesign(found);
    if (found) setState((current) => ({ ...current, paired: found.paired }));
  };
  // Tukey HSD needs parametric, two-tailed tests: a choice no longer allowed falls back to the default.
  const chosenMultiple = state.multiple_comparisons;
  const multipleShown: MultipleComparisons =
    chosenMultiple === null ||
    (chosenMultiple === 'tukey_hsd' && !tukeyAllowed(state.parametric, state.test_types))
      ? defaultMultipleComparisons(state.parametric, state.test_types)
      : chosenMultiple;
  const set = <Key extends keyof WizardState>(key: Key, value: WizardState[Key]) =>
    setState((current) => ({ ...current, [key]: value }));

  // Existing-study mode fetches the study's metrics first.
  useEffect(() => {
    if (studyId === null) return;
    let cancelled = false;
    setLoading(true);
    Promise.all([statisticsApi.studyMetrics(studyId), statisticsApi.studyProducts(studyId)])
      .then(([metrics, studyProducts]) => {
        if (cancelled) return;
        setQuestions(metrics.metrics.map((metric) => ({ value: metric.value, label: metric.label })));
        // The products of the test: a fragrance test's concepts are not among them.
        const tested = new Set(studyProducts.products.map((product) => product.code));
        setProductCodes(metrics.product_codes.filter((product) => tested.has(product.value)));
        setColumns(metrics.product_code_columns);
        applyDesign(studyProducts.design);
      })
      .catch((error: unknown) => {
        if (!cancelled) showAlert('danger', errorMessage(error), STATISTICS_ALERT_MS);
      })
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [studyId]);

  const download = async (file: string) => {
    if (!state.folder_name && !results) {
      showAlert('danger', STATISTICS_MESSAGES.notReady(file), STATISTICS_ALERT_MS);
      return;
    }
    const folder = results?.study_folder_name ?? state.folder_name ?? '';
    setDownloading(file);
    try {
      await statisticsApi.download(folder, file);
    } catch (error) {
      showAlert('danger', errorMessage(error), STATISTICS_ALERT_MS);
    } finally {
      setDownloading(null);
    }
  };

  const templateButton = (file: string) => (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden="true" />}
      onClick={() => {
        if (!state.folder_name) showAlert('danger', STATISTICS_MESSAGES.notReady(file), STATISTICS_ALERT_MS);
        else void download(file);
      }}
      loading={downloading === file}
      w="fit-content"
    >
      Download template
    </Button>
  );

  /** A csv input of a step with the download of its template (steps 1, 4 and 5). */
  const fileWithTemplate = (
    field: 'likert_scale' | 'regression_input' | 'replace_product_input',
    label: string,
    template: string,
  ) => (
    <Stack gap="sm">
      <CsvInput label={label} value={state[field]} onChange={(file) => set(field, file)} />
      {templateButton(template)}
    </Stack>
  );

  const formOf = (): StatisticsForm => ({
    study_name: state.study_name,
    ...(state.folder_name ? { folder_name: state.folder_name } : {}),
    ...(studyId !== null ? { study_id: studyId } : {}),
    product_code: state.product_code ?? '',
    paired: state.paired,
    parametric: state.parametric,
    product_order: state.product_order ?? 'Unspecified Product Order',
    main_question_column: state.main_question_column ?? '',
    strength_questions: state.strength_questions,
    test_types: state.test_types,
    multiple_comparisons: multipleShown,
    cpv_question: state.cpv_question,
    product_code_order: state.product_code_order,
    benchmark_product_code: state.benchmark_product_code,
    benchmark_product_code_order: state.benchmark_product_code_order,
    candidate_product_code_order: state.candidate_product_code_order,
    regression: state.regression,
    replace_product_codes: state.replace_product_codes,
    display_correlation: true,
    charts: state.charts,
    binary_option: state.binary_option,
  });

  const next = async () => {
    const problems = stepProblems(step, state, existing);
    if (problems.length > 0) {
      showAlert('danger', problems.join('\n'), STATISTICS_ALERT_MS, STATISTICS_MESSAGES.missingValues);
      return;
    }
    const target = step + 1;
    setStep(target);
    setLoading(true);
    try {
      if (target === 1 && !existing && state.data_input) {
        const answer = await statisticsApi.uploadData(state.study_name.trim(), state.data_input);
        set('folder_name', answer.folder_name);
        setColumns(answer.product_code_columns);
        setProductCodes(answer.product_codes);
        applyDesign(answer.design);
        if (answer.product_code_columns.some((column) => column.value === 'product_code'))
          set('product_code', 'product_code');
      } else if (target === 2 && !existing && state.folder_name && state.likert_scale) {
        const answer = await statisticsApi.uploadScale(state.folder_name, state.likert_scale);
        setQuestions(answer.metrics);
        setState((current) => ({
          ...current,
          strength_questions:
            current.strength_questions.length > 0 ? current.strength_questions : answer.strength_questions,
          binary_option:
            answer.binary_questions.length > 0 && current.binary_option === 'No binary questions'
              ? '0 and 1'
              : current.binary_option,
        }));
      } else if (target === 4) {
        const answer = await statisticsApi.checkProductCode({
          product_code: state.product_code ?? '',
          ...(state.folder_name ? { folder_name: state.folder_name } : {}),
          ...(studyId !== null ? { study_id: studyId } : {}),
        });
        setProductCodes(answer.product_codes);
      } else if (
        target === 5 &&
        !existing &&
        state.regression &&
        state.folder_name &&
        state.regression_input
      ) {
        await statisticsApi.uploadFile(state.folder_name, 'regression', state.regression_input);
      } else if (target === STATISTICS_RESULTS_STEP) {
        if (!existing && state.replace_product_codes && state.folder_name && state.replace_product_input)
          await statisticsApi.uploadFile(state.folder_name, 'names', state.replace_product_input);
        setResults(await statisticsApi.generate(formOf()));
      }
    } catch (error) {
      showAlert('danger', errorMessage(error), STATISTICS_ALERT_MS);
      setStep(target - 1);
    } finally {
      setLoading(false);
    }
  };

  const { prevDisabled, nextDisabled } = navigation(step, existing, loading);
  const order = state.product_order;
  const orderList = order ? ORDER_LIST_OF[order] : null;

  const body = () => {
    switch (step) {
      case 0:
        return (
          <Stack gap="md">
            <TextInput
              label={FIELD_LABELS.study_name}
              required
              value={state.study_name}
              {...textLimit(state.study_name, TEXT_LIMITS.studyName)}
              onChange={(event) => set('study_name', event.currentTarget.value)}
              maw={480}
            />
            <CsvInput
              label={FIELD_LABELS.data_input}
              value={state.data_input}
              onChange={(file) => set('data_input', file)}
            />
            <Text size="sm" c="dimmed">
              One row per respondent and product: respondent_id, the product code column, then one column per
              question.
            </Text>
          </Stack>
        );
      case 1:
        return (
          <Stack gap="md">
            {fileWithTemplate('likert_scale', FIELD_LABELS.likert_scale, 'scale_template.csv')}
          </Stack>
        );
      case 2:
        return (
          <Stack gap="md">
            <Radio.Group
              label="Design"
              description={
                design?.text ?? 'Design found: not read yet (the data has no product_code column).'
              }
              value={state.paired ? 'paired' : 'unpaired'}
              onChange={(value) => set('paired', value === 'paired')}
            >
              <Group mt="xs">
                <Radio value="paired" label="Paired (the same respondents rated the products)" />
                <Radio value="unpaired" label="Unpaired" />
              </Group>
            </Radio.Group>
            {design && design.design !== null && state.paired !== design.paired ? (
              <Alert color="yellow" variant="light" role="status" p="xs" maw={720}>
                <Text size="sm">
                  {state.paired
                    ? 'Each respondent rated one product: paired tests are not possible, the products will be compared as independent groups.'
                    : "Respondents rated several products: unpaired tests treat each respondent's answers to different products as independent, which they are not."}
                </Text>
              </Alert>
            ) : null}
            <Radio.Group
              label="Tests"
              value={state.parametric ? 'parametric' : 'non-parametric'}
              onChange={(value) => {
                const parametric = value === 'parametric';
                setState((current) => ({ ...current, parametric }));
              }}
            >
              <Group mt="xs">
                <Radio value="parametric" label="Parametric" />
                <Radio value="non-parametric" label="Non-parametric" />
              </Group>
            </Radio.Group>
            <MultiSelect
              label={FIELD_LABELS.test_types}
              data={TEST_OPTIONS}
              value={state.test_types}
              onChange={(value) => {
                const testTypes = value as StatisticsTestType[];
                setState((current) => ({ ...current, test_types: testTypes }));
              }}
              maw={560}
            />
            <Select
              label="Multiple comparisons"
              description="Control of the pairwise comparisons of each question. Tukey HSD needs parametric, two-tailed tests."
              data={multipleComparisonOptions(state.parametric, state.test_types)}
              value={multipleShown}
              onChange={(value) => set('multiple_comparisons', value as MultipleComparisons | null)}
              allowDeselect={false}
              maw={560}
            />
          </Stack>
        );
      case 3:
        return (
          <Stack gap="md" maw={640}>
            <Select
              label={FIELD_LABELS.product_code}
              data={columns}
              value={state.product_code}
              onChange={(value) => set('product_code', value)}
              searchable
              disabled={existing}
            />
            <Select
              label={FIELD_LABELS.main_question_column}
              data={questions}
              value={state.main_question_column}
              onChange={(value) => set('main_question_column', value)}
              searchable
            />
            <Select
              label={FIELD_LABELS.product_order}
              data={PRODUCT_ORDER_OPTIONS.map((value) => ({ value, label: value }))}
              value={order}
              onChange={(value) => set('product_order', value as ProductOrderOption | null)}
            />
            {orderList ? (
              <MultiSelect
                label={ORDER_LIST_LABELS[orderList]}
                data={productCodes}
                value={state[orderList]}
                onChange={(value) => set(orderList, value)}
                searchable
              />
            ) : null}
            {order === 'Unspecified Product Order' || order === 'Specified Product Order' ? (
              <MultiSelect
                label="Benchmark product codes (optional)"
                data={productCodes}
                value={state.benchmark_product_code}
                onChange={(value) => set('benchmark_product_code', value)}
                searchable
              />
            ) : null}
            <MultiSelect
              label="Strength questions (optional)"
              data={questions}
              value={state.strength_questions}
              onChange={(value) => set('strength_questions', value)}
              searchable
            />
            <MultiSelect
              label="CPV (Consumer Perceived Value) questions"
              description="For 5-point scales of the CPV panel only"
              data={questions}
              value={state.cpv_question}
              onChange={(value) => set('cpv_question', value)}
              searchable
            />
            <Select
              label="Questions on binary scale"
              data={BINARY_OPTIONS.map((value) => ({ value, label: value }))}
              value={state.binary_option}
              onChange={(value) =>
                set('binary_option', (value as BinaryOption | null) ?? 'No binary questions')
              }
              allowDeselect={false}
            />
          </Stack>
        );
      case 4:
        return (
          <Stack gap="md">
            <Switch
              label="Regression"
              description={
                existing
                  ? "Drivers: the study's other numerical questions, strength questions aside; outcome: the main question"
                  : undefined
              }
              checked={state.regression}
              onChange={(event) => set('regression', event.currentTarget.checked)}
            />
            {state.regression && !existing
              ? fileWithTemplate('regression_input', FIELD_LABELS.regression_input, 'reg_template.csv')
              : null}
          </Stack>
        );
      case 5:
        return (
          <Stack gap="md">
            <Switch
              label="Charts"
              checked={state.charts}
              onChange={(event) => set('charts', event.currentTarget.checked)}
            />
            <Switch
              label="Replace product codes with names"
              checked={state.replace_product_codes}
              onChange={(event) => set('replace_product_codes', event.currentTarget.checked)}
            />
            {state.replace_product_codes && !existing
              ? fileWithTemplate(
                  'replace_product_input',
                  FIELD_LABELS.replace_product_input,
                  'prod_template.csv',
                )
              : null}
          </Stack>
        );
      default:
        return results ? (
          <StatisticsResultsView
            results={results}
            chartsRequested={state.charts}
            downloading={downloading}
            onDownload={(file) => void download(file)}
          />
        ) : (
          <Text c="dimmed">{STATISTICS_MESSAGES.noData}</Text>
        );
    }
  };

  return (
    <Stack gap="lg">
      <Stepper active={step} allowNextStepsSelect={false} size="sm" wrap aria-label="Wizard steps">
        {STEP_LABELS.map((label, index) => (
          <Stepper.Step key={label} label={label} description={`Step ${index + 1}`} />
        ))}
        <Stepper.Completed>{null}</Stepper.Completed>
      </Stepper>
      <Card withBorder radius="md" padding="lg" aria-busy={loading}>
        {loading ? (
          <Group gap="sm">
            <Loader size="sm" />
            <Text>Working...</Text>
          </Group>
        ) : (
          body()
        )}
      </Card>
      <Group justify="space-between">
        <Button variant="default" disabled={prevDisabled} onClick={() => setStep((current) => current - 1)}>
          Prev
        </Button>
        <Button disabled={nextDisabled} onClick={() => void next()}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}
