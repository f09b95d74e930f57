import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';
import { SessionKeeper } from './session-keeper.tsx';

/**
 * Theme, notifications and the query cache around the whole app. No screen has a date picker, so
 * neither @mantine/dates' provider nor its 30 kB of styles are loaded (dates are formatted by
 * lib/format.ts).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-right" zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        <SessionKeeper />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
