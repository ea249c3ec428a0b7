import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useLocation, useParams, useSearchParams } from 'react-router';
import { ErrorMessage } from './components/ErrorMessage';
import { AcceptInvitationPage } from './pages/AcceptInvitationPage';
import { SignInPage } from './pages/SignInPage';
import { MeProvider, useMeQuery } from './session';
import { Shell } from './Shell';

export const INTERACTIVE_MARK = 'dashboard:interactive';

type Page = LazyExoticComponent<ComponentType<{ params: Record<string, string> }>>;

const page = (load: () => Promise<Record<string, unknown>>, name: string): Page =>
  lazy(async () => ({ default: (await load())[name] as ComponentType<{ params: Record<string, string> }> }));

/**
 * Signed-in pages, each its own chunk: the sign-in page's JavaScript stays small and a page's
 * code loads when it is first opened. `roles` hides a page from the others (the server refuses anyway).
 */
export const ROUTES: { pattern: string; page: Page; roles?: string[] }[] = [
  { pattern: '/developers/api-keys', page: page(() => import('./pages/ApiKeysPage'), 'ApiKeysPage'), roles: ['MERCHANT_ADMIN', 'DEVELOPER'] },
  { pattern: '/developers/webhooks', page: page(() => import('./pages/WebhooksPage'), 'WebhooksPage'), roles: ['MERCHANT_ADMIN', 'DEVELOPER'] },
  { pattern: '/developers/webhooks/:id', page: page(() => import('./pages/WebhookDetailPage'), 'WebhookDetailPage'), roles: ['MERCHANT_ADMIN', 'DEVELOPER'] },
  { pattern: '/overview', page: page(() => import('./pages/OverviewPage'), 'OverviewPage') },
  { pattern: '/customers', page: page(() => import('./pages/CustomersPage'), 'CustomersPage') },
  { pattern: '/customers/:id', page: page(() => import('./pages/CustomerDetailPage'), 'CustomerDetailPage') },
  { pattern: '/invoices', page: page(() => import('./pages/InvoicesPage'), 'InvoicesPage') },
  { pattern: '/invoices/:id', page: page(() => import('./pages/InvoiceDetailPage'), 'InvoiceDetailPage') },
  { pattern: '/subscriptions', page: page(() => import('./pages/SubscriptionsPage'), 'SubscriptionsPage') },
  { pattern: '/subscriptions/:id', page: page(() => import('./pages/SubscriptionDetailPage'), 'SubscriptionDetailPage') },
  { pattern: '/meters', page: page(() => import('./pages/MetersPage'), 'MetersPage') },
  { pattern: '/meters/:id', page: page(() => import('./pages/MeterDetailPage'), 'MeterDetailPage') },
  { pattern: '/reports', page: page(() => import('./pages/ReportsPage'), 'ReportsPage') },
  { pattern: '/settlements', page: page(() => import('./pages/SettlementsPage'), 'SettlementsPage') },
  { pattern: '/monthly-statements', page: page(() => import('./pages/MonthlyStatementsPage'), 'MonthlyStatementsPage') },
  { pattern: '/team', page: page(() => import('./pages/TeamPage'), 'TeamPage'), roles: ['MERCHANT_ADMIN'] },
  { pattern: '/audit-log', page: page(() => import('./pages/AuditLogPage'), 'AuditLogPage'), roles: ['MERCHANT_ADMIN'] },
  { pattern: '/payment-providers', page: page(() => import('./pages/PaymentProvidersPage'), 'PaymentProvidersPage'), roles: ['MERCHANT_ADMIN'] },
  { pattern: '/account', page: page(() => import('./pages/AccountPage'), 'AccountPage') },
];

/** Reached from a link an admin hands on, rarely: its own chunk. */
const ResetPasswordPage = lazy(async () => ({ default: (await import('./pages/ResetPasswordPage')).ResetPasswordPage }));

export function App() {
  const { pathname: path } = useLocation();
  const [query] = useSearchParams();
  const me = useMeQuery();
  // The moment the first page can be used (the session is known and its page rendered), for the
  // budget of docs/dashboard.md: the browser tests read it from the performance timeline.
  const settled = !me.isPending;
  useEffect(() => {
    if (settled && performance.getEntriesByName(INTERACTIVE_MARK).length === 0) performance.mark(INTERACTIVE_MARK);
  }, [settled]);

  if (path === '/accept-invitation') return <AcceptInvitationPage token={query.get('token') ?? ''} />;
  if (path === '/reset-password') {
    return (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <ResetPasswordPage token={query.get('token') ?? ''} />
      </Suspense>
    );
  }
  if (me.isPending) return <p role="status">Loading…</p>;
  if (me.error) return <ErrorMessage error={me.error} />;
  if (!me.data) {
    if (path !== '/sign-in') return <Navigate to="/sign-in" replace />;
    return <SignInPage />;
  }
  if (path === '/sign-in' || path === '/') {
    return <Navigate to={me.data.user.role === 'DEVELOPER' ? '/developers/api-keys' : '/overview'} replace />;
  }

  const role = me.data.user.role;
  return (
    <MeProvider value={me.data}>
      <Shell>
        <Suspense fallback={<p role="status">Loading…</p>}>
          <Routes>
            {ROUTES.map((route) => (
              <Route key={route.pattern} path={route.pattern} element={!route.roles || route.roles.includes(role) ? <RoutePage page={route.page} /> : <NotFound />} />
            ))}
            <Route path="*" element={<NotFound />} />
          </Routes>
        </Suspense>
      </Shell>
    </MeProvider>
  );
}

/** A page gets its path's parameters (`:id`) as props, so it does not depend on the router. */
function RoutePage({ page: Page }: { page: Page }) {
  const params = useParams();
  return <Page params={params as Record<string, string>} />;
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>This page does not exist, or your role does not open it.</p>
    </>
  );
}
