import { Alert } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

const KINDS = {
  error: { color: 'red', icon: IconAlertCircle, role: 'alert' },
  warning: { color: 'yellow', icon: IconAlertTriangle, role: 'alert' },
  success: { color: 'green', icon: IconCircleCheck, role: 'status' },
  info: { color: 'plum', icon: IconInfoCircle, role: 'status' },
} as const;

/** The error box (and its kinder siblings) of the login and reset screens. */
export function FormMessage({ kind, children }: { kind: keyof typeof KINDS; children: ReactNode }) {
  const { color, icon: Icon, role } = KINDS[kind];
  return (
    <Alert color={color} variant="light" icon={<Icon aria-hidden="true" />} role={role}>
      {children}
    </Alert>
  );
}
