import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { Autocomplete, MultiSelect, Select, Switch, TextInput } from '@mantine/core';
import type { StudyTagDefinition } from '@accord/contracts';
import { selectOptions, type InputKind, type InputValue } from '../utils/details-edit.ts';

const COMBOBOX = { withinPortal: true } as const;

/**
 * One field's input in the details edit or the 'Add tag' popup: a text (with suggestions when the
 * field has options), a whole number, a select, a multi-select or a switch, chosen by `kind`.
 */
export function DetailInput({
  field,
  label,
  kind,
  definition,
  value,
  onChange,
  error,
  disabled,
  placeholder,
  autoFocus,
}: {
  field: string;
  label: string;
  kind: InputKind;
  definition: StudyTagDefinition | undefined;
  value: InputValue;
  onChange: (value: InputValue) => void;
  /** A message, or true to mark the input without one. */
  error?: string | boolean;
  disabled?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
}) {
  const text = typeof value === 'string' ? value : '';
  const common = {
    label,
    error,
    disabled,
    autoFocus,
    'data-field': field,
  };

  switch (kind) {
    case 'multiselect':
    case 'gender':
      return (
        <MultiSelect
          {...common}
          data={selectOptions(definition, value)}
          value={Array.isArray(value) ? value : []}
          onChange={onChange}
          placeholder={
            placeholder ?? (Array.isArray(value) && value.length > 0 ? undefined : 'Choose values')
          }
          searchable
          clearable
          hidePickedOptions
          comboboxProps={COMBOBOX}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={selectOptions(definition, text)}
          value={text || null}
          onChange={(next) => onChange(next ?? '')}
          placeholder={placeholder ?? 'Choose a value'}
          searchable
          clearable
          comboboxProps={COMBOBOX}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={label}
          checked={text === 'true'}
          onChange={(event) => onChange(event.currentTarget.checked ? 'true' : 'false')}
          disabled={disabled}
          error={error}
        />
      );
    case 'whole':
      return (
        <TextInput
          {...common}
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
          inputMode="numeric"
          placeholder={placeholder ?? 'A whole number of at least 1'}
        />
      );
    default: {
      const suggestions = [...new Set((definition?.options ?? []).map((option) => option.value))];
      if (suggestions.length > 0)
        return (
          <Autocomplete
            {...common}
            data={suggestions}
            value={text}
            {...textLimit(text, TEXT_LIMITS.studyText)}
            onChange={onChange}
            placeholder={placeholder}
            comboboxProps={COMBOBOX}
          />
        );
      return (
        <TextInput
          {...common}
          value={text}
          {...textLimit(text, TEXT_LIMITS.studyText)}
          onChange={(event) => onChange(event.currentTarget.value)}
          placeholder={placeholder}
        />
      );
    }
  }
}
