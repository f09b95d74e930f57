import { Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@accord/contracts';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { FormMessage } from '../components/form-message.tsx';
import { NewPasswordForm } from '../components/new-password-form.tsx';
import { RequestResetForm } from '../components/request-reset-form.tsx';

/** Route module of /login/reset and /login/reset/{token}. */
export function Component() {
  const { token } = useParams();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const expired = searchParams.get('expired') === 'true';
  const state = location.state as { email?: string; requested?: boolean } | null;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={26}>
          Reset Password
        </Title>
        <Text c="dimmed">
          {token
            ? 'Choose a new password for your account.'
            : 'Enter your e-mail address and we will send you a reset link.'}
        </Text>
      </Stack>
      {expired ? <FormMessage kind="warning">{MESSAGES.resetExpired}</FormMessage> : null}
      {expired && state?.requested ? <FormMessage kind="info">{MESSAGES.resetRequested}</FormMessage> : null}
      {token ? <NewPasswordForm token={token} /> : <RequestResetForm initialEmail={state?.email ?? ''} />}
    </Stack>
  );
}
