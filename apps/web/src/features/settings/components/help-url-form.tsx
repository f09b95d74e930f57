import { TEXT_LIMITS } from '@accord/contracts';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ALERT_CONFIRM_MS } from '@accord/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../../lib/api-error.ts';
import { useUpdateHelpUrlMutation } from '../api/update-help-url.ts';

/** The one site setting: the help view url behind the layout's Help link. */
export function HelpUrlForm({ initialUrl }: { initialUrl: string }) {
  const [url, setUrl] = useState(initialUrl);
  const mutation = useUpdateHelpUrlMutation();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    mutation.mutate(url.trim(), {
      onSuccess: (saved) => {
        setUrl(saved.url);
        notifications.show({
          color: 'green',
          title: 'Settings saved',
          message: saved.url ? 'The Help link now opens the new address.' : 'The Help link is hidden.',
          autoClose: ALERT_CONFIRM_MS,
        });
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Site settings">
      <Stack gap="md" maw={640}>
        <TextInput
          label="Help view url"
          description='Opened by "Help" in the user menu. Leave empty to hide the link; "https://" is added when missing.'
          placeholder="https://help.example.com"
          value={url}
          maxLength={TEXT_LIMITS.helpUrl}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={isApiError(mutation.error) ? mutation.error.message : undefined}
        />
        {mutation.error && !isApiError(mutation.error) ? (
          <Alert color="red" icon={<IconAlertCircle aria-hidden="true" />}>
            The setting could not be saved. Please try again.
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={mutation.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
