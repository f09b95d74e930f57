import {
  EMPTY_NARROWING,
  MESSAGES,
  TEXT_LIMITS,
  WIZARD_ATTRIBUTE_TYPE_TEXT,
  WIZARD_ATTRIBUTE_TYPES,
  WIZARD_ATTRIBUTES,
  WIZARD_MESSAGES,
  type WizardAttributeType,
  type WizardNarrowing,
} from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import {
  Button,
  Group,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { RankingResults } from '../../../components/wizards/ranking-results.tsx';
import { NarrowingStep, useRankingSearch } from '../../../components/wizards/ranking-search.tsx';
import { ThresholdFields, useThreshold } from '../../../components/wizards/threshold-fields.tsx';
import { paths } from '../../../config/paths.ts';

const HOME = { label: 'Home', href: paths.home.href() };
const TITLE = 'Fragrance Attributes';

/**
 * Fragrance Attributes (document 3 sections 2.4 and 4.3): three steps, then Advanced Analytics for
 * users with analytics access, or the ranked results on this page for everyone else.
 */
export function Component() {
  const [step, setStep] = useState(0);
  const [attributeType, setAttributeType] = useState<WizardAttributeType | null>(null);
  const [attribute, setAttribute] = useState<string | null>(null);
  const [filterText, setFilterText] = useState('');
  const threshold = useThreshold();
  const [narrowing, setNarrowing] = useState<WizardNarrowing>(EMPTY_NARROWING);
  const ranking = useRankingSearch();

  const attributes = attributeType
    ? WIZARD_ATTRIBUTES[attributeType].filter((entry) =>
        entry.label.toLowerCase().includes(filterText.trim().toLowerCase()),
      )
    : [];

  const chooseType = (type: WizardAttributeType) => {
    setAttributeType(type);
    setAttribute(null);
    setFilterText('');
  };

  const toThird = () => {
    if (threshold.checkedAmount() !== null) setStep(2);
  };

  const search = () => {
    if (!attributeType || !attribute) return;
    const amount = threshold.checkedAmount();
    if (amount === null) {
      setStep(1);
      return;
    }
    const form = {
      attributeType,
      attribute,
      radioDesc: threshold.desc,
      amount,
      radioPercentType: threshold.percentType,
    };
    ranking.search({ kind: 'attributes', ...form, narrowing });
  };

  return (
    <>
      <PageHeader
        title={TITLE}
        breadcrumbs={[HOME, { label: paths.fragranceAttributes.title }]}
        description="Which fragrances are perceived as clean, relaxing, good for every day use, etc."
      />
      {ranking.shown ? (
        <RankingResults
          request={ranking.shown}
          footnote={WIZARD_MESSAGES.attributeFootnote}
          onBack={ranking.back}
        />
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stepper
            active={step}
            onStepClick={(index) => (index < step ? setStep(index) : undefined)}
            size="sm"
          >
            <Stepper.Step label="Attribute" description="Type and attribute">
              <Stack gap="md" mt="md">
                <Text fw={500} id="attribute-type-label">
                  Attribute type
                </Text>
                <SimpleGrid
                  cols={{ base: 1, xs: 2, md: 4 }}
                  spacing="sm"
                  role="radiogroup"
                  aria-labelledby="attribute-type-label"
                >
                  {WIZARD_ATTRIBUTE_TYPES.map((type) => {
                    const chosen = attributeType === type;
                    return (
                      <UnstyledButton
                        key={type}
                        role="radio"
                        aria-checked={chosen}
                        onClick={() => chooseType(type)}
                        p="md"
                        style={{
                          border: `${chosen ? 2 : 1}px solid ${chosen ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
                          borderRadius: 'var(--mantine-radius-md)',
                          background: chosen ? 'var(--mantine-primary-color-light)' : undefined,
                        }}
                      >
                        <Text fw={600}>{WIZARD_ATTRIBUTE_TYPE_TEXT[type].label}</Text>
                        <Text size="sm" c="dimmed">
                          {WIZARD_ATTRIBUTE_TYPE_TEXT[type].description}
                        </Text>
                      </UnstyledButton>
                    );
                  })}
                </SimpleGrid>
                {attributeType ? (
                  <Stack gap="xs">
                    <TextInput
                      label="Search attributes"
                      value={filterText}
                      {...textLimit(filterText, TEXT_LIMITS.filterText)}
                      onChange={(event) => setFilterText(event.currentTarget.value)}
                      w={{ base: '100%', sm: 320 }}
                    />
                    <Radio.Group label="Attribute" value={attribute} onChange={setAttribute}>
                      <Stack gap="xs" mt="xs">
                        {attributes.map((entry) => (
                          <Radio key={entry.field} value={entry.field} label={entry.label} />
                        ))}
                        {attributes.length === 0 ? (
                          <Text size="sm" c="dimmed">
                            No attributes match this search.
                          </Text>
                        ) : null}
                      </Stack>
                    </Radio.Group>
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed">
                    Choose an attribute type to list its attributes.
                  </Text>
                )}
                <Group justify="flex-end">
                  <Button onClick={() => setStep(1)} disabled={!attribute}>
                    Next
                  </Button>
                </Group>
              </Stack>
            </Stepper.Step>
            <Stepper.Step label="Ranking" description="Best or worst, how many">
              <Stack gap="md" mt="md">
                <ThresholdFields {...threshold.fields} />
                <Text size="sm" c="dimmed">
                  * {WIZARD_MESSAGES.attributeFootnote}
                </Text>
                <Group justify="space-between">
                  <Button variant="default" onClick={() => setStep(0)}>
                    Back
                  </Button>
                  <Button onClick={toThird}>Next</Button>
                </Group>
              </Stack>
            </Stepper.Step>
            <Stepper.Step label="Narrow down" description="Optional filters">
              <NarrowingStep
                value={narrowing}
                onChange={setNarrowing}
                onBack={() => setStep(1)}
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
