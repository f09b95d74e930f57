import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { MESSAGES, TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useResetPasswordMutation } from '../api/reset-password.ts';
import { FormMessage } from './form-message.tsx';

export const PASSWORD_CHANGED = 'Your password has been changed. You can now log in with the new password.';

/** Reset with the mailed token: the new password, twice. */
export function NewPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const mutation = useResetPasswordMutation();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== repeat) {
      setMismatch(true);
      mutation.reset();
      return;
    }
    setMismatch(false);
    mutation.mutate({ token, newPassword: password });
  };

  if (mutation.isSuccess) {
    return (
      <Stack gap="md">
        <FormMessage kind="success">{PASSWORD_CHANGED}</FormMessage>
        <Button component={Link} to={paths.login.href()} fullWidth>
          Back to login
        </Button>
      </Stack>
    );
  }

  const serverError = mutation.error
    ? isApiError(mutation.error) && mutation.error.status !== 0
      ? mutation.error.message
      : MESSAGES.loginFailure
    : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Password reset">
      <Stack gap="md">
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          value={password}
          {...textLimit(password, TEXT_LIMITS.password)}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <PasswordInput
          label="Repeat password"
          autoComplete="new-password"
          value={repeat}
          {...textLimit(repeat, TEXT_LIMITS.password)}
          onChange={(event) => {
            setRepeat(event.currentTarget.value);
            setMismatch(false);
          }}
          error={mismatch ? true : undefined}
        />
        {mismatch ? <FormMessage kind="error">{MESSAGES.passwordsDoNotMatch}</FormMessage> : null}
        {serverError ? <FormMessage kind="error">{serverError}</FormMessage> : null}
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
