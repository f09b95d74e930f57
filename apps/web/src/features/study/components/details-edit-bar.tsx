import { Button, Group, Kbd, Loader, Paper, Switch, Text } from '@mantine/core';
import type { DetailsEdit } from '../hooks/use-details-edit.ts';

/** The verified toggle's text in edit mode (document 2 section 4). */
export const verifiedToggleLabel = (checked: boolean) => (checked ? 'Validated' : 'Validation in progress');

/**
 * The admins' edit switch of the study details: on copies the values into inputs, off saves; in edit
 * mode the verified toggle and a way to cancel (Escape) are shown.
 */
export function DetailsEditBar({
  edit,
  ready,
  unavailable,
}: {
  edit: DetailsEdit;
  /** The tag definitions are loaded, so editing can begin. */
  ready: boolean;
  /** The tag definitions could not be loaded. */
  unavailable: boolean;
}) {
  const verified = edit.values.verified === 'true';
  const hasVerified = edit.fields?.some((field) => field.field === 'verified' && field.kind === 'boolean');
  return (
    <Paper withBorder radius="md" px="md" py="sm">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="lg" wrap="wrap">
          <Switch
            label="Edit mode"
            checked={edit.editing}
            disabled={!ready || edit.saving}
            onChange={(event) => {
              if (event.currentTarget.checked) edit.begin();
              else void edit.save();
            }}
          />
          {edit.editing && hasVerified ? (
            <Switch
              label={verifiedToggleLabel(verified)}
              checked={verified}
              color="green"
              disabled={edit.saving}
              onChange={(event) => edit.change('verified', event.currentTarget.checked ? 'true' : 'false')}
            />
          ) : null}
          {edit.saving ? (
            <Group gap={6}>
              <Loader size="xs" aria-hidden="true" />
              <Text size="sm" c="dimmed" role="status">
                Saving…
              </Text>
            </Group>
          ) : null}
        </Group>
        {edit.editing ? (
          <Group gap="sm" wrap="wrap">
            <Text size="sm" c="dimmed" visibleFrom="sm">
              <Kbd size="xs">Enter</Kbd> or switching off saves, <Kbd size="xs">Esc</Kbd> cancels
            </Text>
            <Button variant="default" size="xs" onClick={edit.cancel} disabled={edit.saving}>
              Cancel
            </Button>
          </Group>
        ) : unavailable ? (
          <Text size="sm" c="red.8">
            Editing is not available right now: the field options could not be loaded.
          </Text>
        ) : null}
      </Group>
    </Paper>
  );
}
