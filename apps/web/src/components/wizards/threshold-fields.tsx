import { parseTopAmount, type BestWorstForm } from '@accord/contracts';
import { Radio, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';

interface ThresholdFieldsProps {
  desc: BestWorstForm['radioDesc'];
  amountText: string;
  percentType: BestWorstForm['radioPercentType'];
  amountError: string | null;
  onDesc: (value: BestWorstForm['radioDesc']) => void;
  onAmount: (value: string) => void;
  onPercentType: (value: BestWorstForm['radioPercentType']) => void;
}

/**
 * The state of the ranking step shared by the Best/Worst Testers and Fragrance Attributes wizards:
 * best or worst, the top amount as typed (10 at first) and number or percentage. `checkedAmount`
 * answers the amount, or shows why it is refused under the field and answers null.
 */
export function useThreshold() {
  const [desc, setDesc] = useState<BestWorstForm['radioDesc']>('best');
  const [amountText, setAmountText] = useState('10');
  const [percentType, setPercentType] = useState<BestWorstForm['radioPercentType']>('number');
  const [amountError, setAmountError] = useState<string | null>(null);

  const checkedAmount = (): number | null => {
    const parsed = parseTopAmount(amountText, percentType);
    if ('error' in parsed) {
      setAmountError(parsed.error);
      return null;
    }
    setAmountError(null);
    return parsed.amount;
  };

  const fields: ThresholdFieldsProps = {
    desc,
    amountText,
    percentType,
    amountError,
    onDesc: setDesc,
    onAmount: (value) => {
      setAmountText(value);
      setAmountError(null);
    },
    onPercentType: setPercentType,
  };
  return { desc, percentType, checkedAmount, fields };
}

/**
 * Best or worst, the top amount and number (#) or percentage (%): the shared first questions of the
 * Best/Worst Testers and Fragrance Attributes wizards.
 */
export function ThresholdFields({
  desc,
  amountText,
  percentType,
  amountError,
  onDesc,
  onAmount,
  onPercentType,
}: ThresholdFieldsProps) {
  return (
    <Stack gap="md">
      <Radio.Group
        label="Best or worst"
        value={desc}
        onChange={(value) => onDesc(value as BestWorstForm['radioDesc'])}
      >
        <Group mt="xs">
          <Radio value="best" label="Best" />
          <Radio value="worst" label="Worst" />
        </Group>
      </Radio.Group>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <TextInput
          label="Top amount"
          inputMode="numeric"
          value={amountText}
          onChange={(event) => onAmount(event.currentTarget.value)}
          error={amountError}
          w={{ base: '100%', xs: 200 }}
          description="A positive whole number"
        />
        <Radio.Group
          label="Number or percentage"
          value={percentType}
          onChange={(value) => onPercentType(value as BestWorstForm['radioPercentType'])}
        >
          <Group mt="xs">
            <Radio value="number" label="Number (#)" />
            <Radio value="percentage" label="Percentage (%)" />
          </Group>
        </Radio.Group>
      </Group>
    </Stack>
  );
}
