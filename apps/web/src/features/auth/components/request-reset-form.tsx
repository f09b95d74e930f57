import { Button, Group, Stack, TextInput } from '@mantine/core';
import { MESSAGES, TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useRequestPasswordResetMutation } from '../api/request-password-reset.ts';
import { FormMessage } from './form-message.tsx';

/** Reset without a token: ask for the e-mail address and mail a reset link. */
export function RequestResetForm({ initialEmail = '' }: { initialEmail?: string }) {
  const [email, setEmail] = useState(initialEmail);
  const mutation = useRequestPasswordResetMutation();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    mutation.mutate(email.trim());
  };

  const error = mutation.error
    ? isApiError(mutation.error) && mutation.error.status !== 0
      ? mutation.error.message
      : MESSAGES.loginFailure
    : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reset link request">
      <Stack gap="md">
        <TextInput
          label="Email address"
          type="email"
          autoComplete="email"
          value={email}
          {...textLimit(email, TEXT_LIMITS.email)}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        {mutation.isSuccess ? <FormMessage kind="success">{MESSAGES.resetRequested}</FormMessage> : null}
        {error ? <FormMessage kind="error">{error}</FormMessage> : null}
        <Group justify="space-between">
          <Button component={Link} to={paths.login.href()} variant="default">
            Back
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            Reset Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
