import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';
import { SessionKeeper } from './session-keeper.tsx';

/** Theme, notifications, dates locale and the query cache around the whole app. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <DatesProvider settings={{ locale: 'en-gb' }}>
        <Notifications position="top-right" zIndex={1000} />
        <QueryClientProvider client={queryClient}>
          <SessionKeeper />
          {children}
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
