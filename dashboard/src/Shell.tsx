import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { signOut } from './api/session';
import { ErrorMessage } from './components/ErrorMessage';
import { Link, NavLink, useNavigate } from 'react-router';
import { useMe, useSignedOut } from './session';

interface NavItem {
  to: string;
  label: string;
  roles?: string[];
}

const SECTIONS: { heading: string; items: NavItem[]; roles?: string[] }[] = [
  {
    heading: 'Developers',
    roles: ['MERCHANT_ADMIN', 'DEVELOPER'],
    items: [
      { to: '/developers/api-keys', label: 'API keys' },
      { to: '/developers/webhooks', label: 'Webhooks' },
    ],
  },
  {
    heading: 'Billing',
    items: [
      { to: '/overview', label: 'Overview' },
      { to: '/customers', label: 'Customers' },
      { to: '/invoices', label: 'Invoices' },
      { to: '/subscriptions', label: 'Subscriptions' },
      { to: '/meters', label: 'Meters' },
    ],
  },
  {
    heading: 'Finance',
    items: [
      { to: '/reports', label: 'Reports' },
      { to: '/settlements', label: 'Settlements' },
      { to: '/monthly-statements', label: 'Monthly statements' },
    ],
  },
  {
    heading: 'Administration',
    roles: ['MERCHANT_ADMIN'],
    items: [
      { to: '/team', label: 'Team' },
      { to: '/audit-log', label: 'Audit log' },
      { to: '/payment-providers', label: 'Payment providers' },
    ],
  },
];

const ROLE_NAMES: Record<string, string> = { MERCHANT_ADMIN: 'Merchant admin', DEVELOPER: 'Developer', SUPPORT: 'Support' };

export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
  const navigate = useNavigate();
  const signedOut = useSignedOut();
  const out = useMutation({
    mutationFn: signOut,
    onSuccess: () => {
      signedOut();
      navigate('/sign-in', { replace: true });
    },
  });
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">{me.account.name}</span>
        <span className="who">
          {me.user.email} · {ROLE_NAMES[me.user.role] ?? me.user.role}
        </span>
        <Link to="/account">Account security</Link>
        <button type="button" onClick={() => out.mutate()} disabled={out.isPending}>
          Sign out
        </button>
        <ErrorMessage error={out.error} />
      </header>
      <nav className="side" aria-label="Sections">
        {SECTIONS.filter((section) => !section.roles || section.roles.includes(me.user.role)).map((section) => (
          <div key={section.heading}>
            <h2>{section.heading}</h2>
            <ul>
              {section.items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main">{children}</main>
    </div>
  );
}
