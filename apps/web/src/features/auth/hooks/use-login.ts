import { LOGIN_TIMEOUT_MS, MESSAGES, type LoginRequest } from '@accord/contracts';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { logout } from '../../../lib/api/session-api.ts';
import { signIn } from '../../../lib/session.ts';
import { login } from '../api/login.ts';
import { requestPasswordReset } from '../api/request-password-reset.ts';

/** A failed login kept for the debug list (document 1 section 4, step 6). */
export interface FailedLogin {
  time: string;
  status: number;
  message: string;
  headers: Record<string, string>;
  config: { method: string; url: string; data: { email: string; remember: boolean } };
}

/** What the login screen shows for a failure (document 1 section 8). */
function failureMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return MESSAGES.loginUnauthorized;
    if (error.status === 429) return error.message;
  }
  return MESSAGES.loginFailure;
}

/**
 * The login flow: sign in and go home; a user who has not logged in for 30 days is logged out
 * again, mailed a reset link and sent to the reset screen; a slow answer shows a notice while the
 * request continues.
 */
export function useLogin() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [slow, setSlow] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failures, setFailures] = useState<FailedLogin[]>([]);
  const inFlight = useRef(false);

  const submit = useCallback(
    async (credentials: LoginRequest) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setPending(true);
      setError(null);
      setSlow(false);
      const slowTimer = window.setTimeout(() => setSlow(true), LOGIN_TIMEOUT_MS);
      try {
        const user = await login(credentials);
        if (user.password_reset_flag) {
          await logout().catch(() => undefined);
          const requested = await requestPasswordReset(user.email).then(
            () => true,
            () => false,
          );
          void navigate(paths.reset.href({ expired: true }), {
            replace: true,
            state: { email: user.email, requested },
          });
          return;
        }
        signIn(user);
        void navigate(paths.home.href(), { replace: true });
      } catch (caught) {
        setError(failureMessage(caught));
        setFailures((previous) => [
          {
            time: new Date().toISOString(),
            status: isApiError(caught) ? caught.status : 0,
            message: caught instanceof Error ? caught.message : String(caught),
            headers: isApiError(caught) ? caught.headers : {},
            config: {
              method: 'POST',
              url: '/api/auth/login',
              data: { email: credentials.email, remember: credentials.remember },
            },
          },
          ...previous,
        ]);
      } finally {
        window.clearTimeout(slowTimer);
        setSlow(false);
        setPending(false);
        inFlight.current = false;
      }
    },
    [navigate],
  );

  return { submit, pending, slow, error, failures };
}
