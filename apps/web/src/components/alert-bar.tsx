import { Alert, List, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { dismissAlert, useAlerts, type AlertType } from '../lib/alerts.ts';

const STYLE: Record<AlertType, { color: string; icon: typeof IconInfoCircle; title: string }> = {
  success: { color: 'green', icon: IconCircleCheck, title: 'Done' },
  warning: { color: 'yellow', icon: IconAlertTriangle, title: 'Warning' },
  danger: { color: 'red', icon: IconInfoCircle, title: 'Error' },
};

/** The dismissible alert bar: global success, warning and danger messages, top centre. */
export function AlertBar() {
  const alerts = useAlerts();
  if (alerts.length === 0) return null;
  return (
    <Stack
      gap="xs"
      pos="fixed"
      top={72}
      left="50%"
      w="min(560px, calc(100vw - 32px))"
      style={{ transform: 'translateX(-50%)', zIndex: 400 }}
    >
      {alerts.map((alert) => {
        const style = STYLE[alert.type];
        const Icon = style.icon;
        return (
          <Alert
            key={alert.id}
            color={style.color}
            variant="light"
            title={alert.title ?? style.title}
            icon={<Icon aria-hidden="true" />}
            withCloseButton
            closeButtonLabel="Dismiss alert"
            onClose={() => dismissAlert(alert.id)}
            role={alert.type === 'success' ? 'status' : 'alert'}
            style={{ boxShadow: 'var(--mantine-shadow-md)' }}
          >
            <AlertMessage message={alert.message} />
          </Alert>
        );
      })}
    </Stack>
  );
}

/** A message of several lines (a list of problems) reads as a list, one item a line. */
function AlertMessage({ message }: { message: string }) {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return message;
  return (
    <List size="sm" spacing={2}>
      {lines.map((line, index) => (
        <List.Item key={index}>{line}</List.Item>
      ))}
    </List>
  );
}
