import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Bootstrap } from './bootstrap.tsx';
import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <Bootstrap>
        <RouterProvider router={router} />
      </Bootstrap>
    </AppProvider>
  );
}
