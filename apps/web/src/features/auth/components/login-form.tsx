import {
  Anchor,
  Box,
  Button,
  Checkbox,
  Code,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { MESSAGES, PRODUCT_NAME, REMEMBER_ME_DEFAULT, TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isDebugEnabled } from '../../../lib/debug.ts';
import { useLogin } from '../hooks/use-login.ts';
import { FormMessage } from './form-message.tsx';

/** The login screen's form (document 1 section 2). */
export function LoginForm({ notice }: { notice?: { kind: 'warning' | 'info'; text: string } | null }) {
  const { submit, pending, slow, error, failures } = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState<boolean>(REMEMBER_ME_DEFAULT);
  const debug = isDebugEnabled();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit({ email, password, remember });
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={26}>
          Welcome to {PRODUCT_NAME}
        </Title>
        <Text c="dimmed">Sign in to search the study library and run fragrance analytics.</Text>
      </Stack>
      {notice ? <FormMessage kind={notice.kind}>{notice.text}</FormMessage> : null}
      <form onSubmit={onSubmit} noValidate aria-label="Login">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            {...textLimit(email, TEXT_LIMITS.email)}
            onChange={(event) => setEmail(event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            {...textLimit(password, TEXT_LIMITS.password)}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {/* The remember-me option is hidden (document 1 section 2) and defaults to on. */}
          <Box hidden>
            <Checkbox
              label="Remember me"
              checked={remember}
              onChange={(event) => setRemember(event.currentTarget.checked)}
            />
          </Box>
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={paths.reset.href()} size="sm">
              Forgot password?
            </Anchor>
          </Group>
          {slow ? <FormMessage kind="warning">{MESSAGES.loginTooSlow}</FormMessage> : null}
          {error ? <FormMessage kind="error">{error}</FormMessage> : null}
          <Button type="submit" fullWidth loading={pending} size="md">
            Login
          </Button>
        </Stack>
      </form>
      {debug && failures.length > 0 ? (
        <details>
          <summary>
            <Text span size="sm" fw={600}>
              Failed logins (debug)
            </Text>
          </summary>
          <Code block mt="xs" style={{ maxHeight: 240, overflow: 'auto' }}>
            {JSON.stringify(failures, null, 2)}
          </Code>
        </details>
      ) : null}
    </Stack>
  );
}
