import { MESSAGES, UNSUPPORTED_BROWSER_ALERT_MS, isUnsupportedBrowser } from '@accord/contracts';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { showAlert } from '../../../lib/alerts.ts';
import { useSession } from '../../../lib/session.ts';
import { LoginForm } from '../components/login-form.tsx';

let browserWarned = false;

/** Route module of /login. */
export function Component() {
  const [searchParams] = useSearchParams();
  const { ended } = useSession();

  useEffect(() => {
    if (browserWarned || !isUnsupportedBrowser(navigator.userAgent)) return;
    browserWarned = true;
    showAlert('warning', MESSAGES.unsupportedBrowser, UNSUPPORTED_BROWSER_ALERT_MS);
  }, []);

  const notice = searchParams.get('expired')
    ? ({ kind: 'warning', text: MESSAGES.resetExpired } as const)
    : ended
      ? ({ kind: 'info', text: MESSAGES.sessionEnded } as const)
      : null;

  return <LoginForm notice={notice} />;
}
