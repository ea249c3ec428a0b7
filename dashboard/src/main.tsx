import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { RequestFailed } from './api/errors';
import { App } from './App';
import { ME_KEY } from './session';
import './styles.css';

// A 401 anywhere means the session ended (signed out elsewhere, expired, user removed):
// asking `me` again sends the app to the sign-in page at once.
const sessionEnded = (error: unknown) => {
  if (error instanceof RequestFailed && error.status === 401) void queryClient.invalidateQueries({ queryKey: ME_KEY });
};

const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: sessionEnded }),
  mutationCache: new MutationCache({ onError: sessionEnded }),
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: false,
      // A refusal is an answer: only network trouble is worth asking again.
      retry: (count, error) => !(error instanceof RequestFailed) && count < 2,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      {/* The API serves the dashboard under /dashboard/ (api/http/dashboard-static.ts, vite.config.ts's base). */}
      <BrowserRouter basename="/dashboard">
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
