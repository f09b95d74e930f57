import {
  EMPTY_NARROWING,
  MESSAGES,
  WIZARD_MESSAGES,
  WIZARD_SOURCE_LABELS,
  WIZARD_SOURCES,
  type BestWorstForm,
  type WizardNarrowing,
  type WizardSource,
} from '@accord/contracts';
import { Button, Group, Paper, Radio, Stack, Stepper, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { RankingResults } from '../../../components/wizards/ranking-results.tsx';
import { NarrowingStep, useRankingSearch } from '../../../components/wizards/ranking-search.tsx';
import { ThresholdFields, useThreshold } from '../../../components/wizards/threshold-fields.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };

/**
 * Best & Worst Testers (document 3 sections 2.3 and 4.2): two steps, then Advanced Analytics for
 * users with analytics access, or the ranked results on this page for everyone else.
 */
export function Component() {
  const [step, setStep] = useState(0);
  const threshold = useThreshold();
  const [type, setType] = useState<BestWorstForm['type']>('fragrances');
  const [rdfType, setRdfType] = useState<WizardSource>('rdf');
  const [narrowing, setNarrowing] = useState<WizardNarrowing>(EMPTY_NARROWING);
  const ranking = useRankingSearch();

  const next = () => {
    if (threshold.checkedAmount() !== null) setStep(1);
  };

  const search = () => {
    const amount = threshold.checkedAmount();
    if (amount === null) {
      setStep(0);
      return;
    }
    const form = {
      radioDesc: threshold.desc,
      amount,
      radioPercentType: threshold.percentType,
      type,
      rdfType,
    };
    ranking.search({ kind: 'testers', ...form, narrowing });
  };

  return (
    <>
      <PageHeader
        title={paths.topworst.title}
        breadcrumbs={[HOME, { label: paths.topworst.title }]}
        description="Find the best or worst tested fragrances or concepts."
      />
      {ranking.shown ? (
        <RankingResults
          request={ranking.shown}
          footnote={WIZARD_MESSAGES.sourceFootnote}
          onBack={ranking.back}
        />
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stepper
            active={step}
            onStepClick={(index) => (index < step ? setStep(index) : undefined)}
            size="sm"
          >
            <Stepper.Step label="Ranking" description="Best or worst, how many, what">
              <Stack gap="md" mt="md">
                <ThresholdFields {...threshold.fields} />
                <Radio.Group
                  label="Fragrances or concepts"
                  value={type}
                  onChange={(value) => setType(value as BestWorstForm['type'])}
                >
                  <Group mt="xs">
                    <Radio value="fragrances" label="Fragrances" />
                    <Radio value="concepts" label="Concepts" />
                  </Group>
                </Radio.Group>
                <Radio.Group
                  label="Source"
                  value={rdfType}
                  onChange={(value) => setRdfType(value as WizardSource)}
                >
                  <Group mt="xs">
                    {WIZARD_SOURCES.map((source) => (
                      <Radio key={source} value={source} label={WIZARD_SOURCE_LABELS[source]} />
                    ))}
                  </Group>
                </Radio.Group>
                <Text size="sm" c="dimmed">
                  * {WIZARD_MESSAGES.sourceFootnote}
                </Text>
                <Group justify="flex-end">
                  <Button onClick={next}>Next</Button>
                </Group>
              </Stack>
            </Stepper.Step>
            <Stepper.Step label="Narrow down" description="Optional filters">
              <NarrowingStep
                value={narrowing}
                onChange={setNarrowing}
                onBack={() => setStep(0)}
                onSearch={search}
              />
            </Stepper.Step>
          </Stepper>
          <Text size="xs" c="dimmed" mt="lg">
            {MESSAGES.harmonisedFootnote}
          </Text>
        </Paper>
      )}
    </>
  );
}
