import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { SESSION_ENDED_EVENT } from './api/call';
import { RequestFailed } from './api/errors';
import { endSession, fetchSession } from './api/session';
import type { Customer, PortalSessionInfo } from './api/types';
import { ErrorMessage } from './components/ErrorMessage';
import { MerchantContext } from './components/merchant';
import { Shell } from './components/Shell';
import { I18nProvider, useI18n } from './i18n/I18n';
import { LinkRefusedPage } from './pages/LinkRefusedPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OverviewPage } from './pages/OverviewPage';
import { SessionEndedPage } from './pages/SessionEndedPage';
import { match, useLocation } from './router';
import { SessionProvider } from './session';

const page = <P,>(load: () => Promise<Record<string, unknown>>, name: string) =>
  lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));

/** Pages other than the first a session opens, each its own chunk: the overview's JavaScript stays small. */
const InvoicesPage = page<object>(() => import('./pages/InvoicesPage'), 'InvoicesPage');
const PaymentMethodsPage = page<object>(() => import('./pages/PaymentMethodsPage'), 'PaymentMethodsPage');
const BillingDetailsPage = page<object>(() => import('./pages/BillingDetailsPage'), 'BillingDetailsPage');
const HostedInvoicePage = page<{ token: string }>(() => import('./pages/HostedInvoicePage'), 'HostedInvoicePage');

function Loading() {
  const { t } = useI18n();
  return <p role="status">{t.common.loading}</p>;
}

/** A page without a portal session: the language of the browser, then English; the merchant named when known. */
function PublicPage({ merchant = '', children }: { merchant?: string; children: ReactNode }) {
  return (
    <I18nProvider preferred={navigator.languages}>
      <MerchantContext.Provider value={merchant}>
        <Shell>
          <Suspense fallback={<Loading />}>{children}</Suspense>
        </Shell>
      </MerchantContext.Provider>
    </I18nProvider>
  );
}

export function App() {
  const { path, query } = useLocation();
  if (path === '/link-refused') {
    return (
      <PublicPage>
        <LinkRefusedPage reason={query.get('reason')} />
      </PublicPage>
    );
  }
  const hosted = match('/invoices/:token', path);
  if (hosted) {
    return (
      <PublicPage>
        <HostedInvoicePage token={hosted.token!} />
      </PublicPage>
    );
  }
  return <SessionApp path={path} />;
}

type SessionState = { phase: 'loading' } | { phase: 'failed'; error: unknown } | { phase: 'ended'; info?: PortalSessionInfo } | { phase: 'open'; info: PortalSessionInfo };

function SessionApp({ path }: { path: string }) {
  const [state, setState] = useState<SessionState>({ phase: 'loading' });
  const [signingOut, setSigningOut] = useState(false);

  useEffect(() => {
    fetchSession().then(
      (info) => setState({ phase: 'open', info }),
      (error: unknown) => setState(error instanceof RequestFailed && error.status === 401 ? { phase: 'ended' } : { phase: 'failed', error }),
    );
    // Any 401 later (idle for 30 minutes, signed out in another tab, the customer deactivated) ends the page's session.
    const ended = () => setState((current) => ({ phase: 'ended', info: 'info' in current ? current.info : undefined }));
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, ended);
  }, []);

  const info = 'info' in state ? state.info : undefined;
  const preferred = [info?.locale, ...(info?.customer.configuration?.preferred_locales ?? [])];
  const customerChanged = (customer: Customer) =>
    setState((current) => (current.phase === 'open' ? { phase: 'open', info: { ...current.info, customer } } : current));

  const signOut = async () => {
    setSigningOut(true);
    try {
      const returnUrl = await endSession();
      if (returnUrl) window.location.assign(returnUrl);
      else setState({ phase: 'ended', info });
    } catch {
      // The session had already ended (the 401 shows the ended page) or the network failed: stay, the button works again.
      setSigningOut(false);
    }
  };

  let content: ReactNode;
  if (state.phase === 'loading') content = <Loading />;
  else if (state.phase === 'failed') content = <ErrorMessage error={state.error} />;
  else if (state.phase === 'ended') content = <SessionEndedPage returnUrl={state.info?.return_url ?? null} />;
  else content = <SessionPage path={path} />;

  return (
    <I18nProvider preferred={preferred}>
      <MerchantContext.Provider value={info?.account.name ?? ''}>
        {state.phase === 'open' ? (
          <SessionProvider value={{ info: state.info, customerChanged }}>
            <Shell returnUrl={state.info.return_url} signedIn={{ email: state.info.customer.email, onSignOut: () => void signOut(), signingOut }}>
              {content}
            </Shell>
          </SessionProvider>
        ) : (
          <Shell returnUrl={info?.return_url}>{content}</Shell>
        )}
      </MerchantContext.Provider>
    </I18nProvider>
  );
}

function SessionPage({ path }: { path: string }) {
  let content: ReactNode;
  if (path === '/') content = <OverviewPage />;
  else if (path === '/invoices') content = <InvoicesPage />;
  else if (path === '/payment-methods') content = <PaymentMethodsPage />;
  else if (path === '/billing-details') content = <BillingDetailsPage />;
  else content = <NotFoundPage />;
  return <Suspense fallback={<Loading />}>{content}</Suspense>;
}
