import type { ReactNode } from 'react';
import { useI18n } from '../i18n/I18n';
import { Link, useLocation } from '../router';
import { LanguageSwitch } from './LanguageSwitch';
import { useMerchantName } from './merchant';

export interface ShellProps {
  /** Where "Back to <merchant>" goes (the portal session's `return_url`); no link without one. */
  returnUrl?: string | null;
  /** The session's sections and sign-out; absent on public pages. */
  signedIn?: { email: string; onSignOut(): void; signingOut: boolean };
  children: ReactNode;
}

/** The page frame: skip link, banner (merchant, sections, language, back link, sign-out), main. */
export function Shell({ returnUrl, signedIn, children }: ShellProps) {
  const { t } = useI18n();
  const merchant = useMerchantName();
  const { path } = useLocation();
  const sections = [
    { to: '/', label: t.nav.subscriptions },
    { to: '/invoices', label: t.nav.invoices },
    { to: '/payment-methods', label: t.nav.paymentMethods },
    { to: '/billing-details', label: t.nav.billingDetails },
  ];
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t.common.skipToContent}
      </a>
      <header className="top">
        <span className="brand">{merchant || t.common.portal}</span>
        <LanguageSwitch />
        {returnUrl && merchant && <a href={returnUrl}>{t.common.backTo(merchant)}</a>}
        {signedIn && <span className="signed-in">{t.common.signedInAs(signedIn.email)}</span>}
        {signedIn && (
          <button type="button" className="secondary" onClick={signedIn.onSignOut} disabled={signedIn.signingOut}>
            {t.common.signOut}
          </button>
        )}
      </header>
      {signedIn && (
        <nav className="sections" aria-label={t.common.sections}>
          <ul>
            {sections.map((section) => (
              <li key={section.to}>
                <Link to={section.to} aria-current={path === section.to ? 'page' : undefined}>
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="main">{children}</main>
    </div>
  );
}
