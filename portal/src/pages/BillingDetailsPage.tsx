import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { alpha2Of, COUNTRY_CODES, type CountryCode } from '../../../domain/countries';
import { portalCall } from '../api/call';
import type { Address, Customer } from '../api/types';
import { useAction } from '../api/useAction';
import { ErrorMessage } from '../components/ErrorMessage';
import { useInteractiveWhen } from '../components/interactive';
import { useMerchantName } from '../components/merchant';
import { Notice } from '../components/Notice';
import { PageHeading } from '../components/PageHeading';
import { LANGUAGES } from '../i18n/choose';
import { de } from '../i18n/de';
import { en } from '../i18n/en';
import { useI18n } from '../i18n/I18n';
import { useSession } from '../session';

const ADDRESS_FIELDS = ['line1', 'line2', 'postal_code', 'city', 'state', 'country'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];
type AddressForm = Record<AddressField, string>;
interface RegistrationForm {
  key: string;
  country: string;
  id: string;
}

/** The portal's own languages named in themselves, as in the header's switch; others by Intl in the page's language. */
const LANGUAGE_NAMES: Record<string, string> = { en: en.languageName, de: de.languageName };

/** Every country by its name in the reader's language (Intl), sorted as that language sorts. */
function useCountries(locale: string): { code: CountryCode; name: string }[] {
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const collator = new Intl.Collator(locale);
    return COUNTRY_CODES.map((code) => ({ code, name: names.of(alpha2Of(code)) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
  }, [locale]);
}

function addressForm(address: Address | undefined): AddressForm {
  return {
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postal_code: address?.postal_code ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    country: address?.country ?? '',
  };
}

/** The address as customers/update takes it: empty fields left out, no address at all as null. */
function addressBody(form: AddressForm): Address | null {
  const entries = ADDRESS_FIELDS.flatMap((field) => (form[field].trim() ? [[field, form[field].trim()] as const] : []));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

function registrationsOf(customer: Customer): RegistrationForm[] {
  return (customer.tax.registrations ?? []).map((registration, index) => ({ key: `saved-${index}`, country: registration.country, id: registration.id }));
}

/**
 * The customer's billing details as `billing-details/update` takes them (customers/update's
 * validation, the API's field messages): e-mail, address, VAT registrations, the preferred
 * language. Only what changed is sent. E-mail, address and registrations are read-only when the
 * merchant's settings do not let customers change them; the language is always the customer's.
 */
export function BillingDetailsPage() {
  const { t, locale } = useI18n();
  const { info, customerChanged } = useSession();
  const merchant = useMerchantName();
  const customer = info.customer;
  const editable = info.settings.billing_details_updates;
  const id = useId();
  const countries = useCountries(locale);
  const languageNames = useMemo(() => new Intl.DisplayNames([locale], { type: 'language' }), [locale]);
  const [email, setEmail] = useState(customer.email);
  const [address, setAddress] = useState(() => addressForm(customer.address));
  const [registrations, setRegistrations] = useState(() => registrationsOf(customer));
  const preferred = customer.configuration?.preferred_locales ?? [];
  const [language, setLanguage] = useState(preferred[0] ?? '');
  const [notice, setNotice] = useState('');
  const added = useRef(0);
  const save = useAction((body: Record<string, unknown>) => portalCall<Customer>('billing-details/update', body));
  useInteractiveWhen(true);

  const labels: Record<string, string> = {
    email: t.details.email,
    'address.line1': t.details.line1,
    'address.line2': t.details.line2,
    'address.postal_code': t.details.postalCode,
    'address.city': t.details.city,
    'address.state': t.details.state,
    'address.country': t.details.country,
    preferred_locales: t.details.locale,
  };
  const fieldLabel = (path: string) => {
    const registration = /^tax_registrations\[(\d+)\]\.(\w+)$/.exec(path);
    if (registration) {
      const n = Number(registration[1]) + 1;
      return registration[2] === 'country' ? t.details.registrationCountry(n) : t.details.registrationId(n);
    }
    return labels[path] ?? (path.startsWith('preferred_locales') ? t.details.locale : undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setNotice('');
    const body: Record<string, unknown> = {};
    if (email.trim() !== customer.email) body.email = email.trim();
    const nextAddress = addressBody(address);
    if (JSON.stringify(nextAddress) !== JSON.stringify(addressBody(addressForm(customer.address)))) body.address = nextAddress;
    const nextRegistrations = registrations.map((registration) => ({ scheme: 'VAT', id: registration.id.trim(), country: registration.country }));
    const savedRegistrations = registrationsOf(customer).map((registration) => ({ scheme: 'VAT', id: registration.id, country: registration.country }));
    if (JSON.stringify(nextRegistrations) !== JSON.stringify(savedRegistrations)) body.tax_registrations = nextRegistrations;
    if (language && language !== preferred[0]) body.preferred_locales = [language, ...preferred.filter((tag) => tag !== language)];
    if (Object.keys(body).length === 0) {
      setNotice(t.details.unchanged);
      return;
    }
    const updated = await save.run(body);
    if (updated) {
      customerChanged(updated);
      setRegistrations(registrationsOf(updated));
      setNotice(t.details.saved);
    }
  };

  const field = (name: AddressField, label: string, autoComplete: string) => (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        value={address[name]}
        onChange={(event) => setAddress({ ...address, [name]: event.target.value })}
        autoComplete={autoComplete}
        disabled={!editable}
      />
    </>
  );

  return (
    <>
      <PageHeading title={t.details.title}>{t.details.title}</PageHeading>
      {!editable && <p>{t.details.locked(merchant)}</p>}
      <form className="details" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor={`${id}-email`}>{t.details.email}</label>
        <input id={`${id}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="email" disabled={!editable} />
        <fieldset>
          <legend>{t.details.address}</legend>
          {field('line1', t.details.line1, 'address-line1')}
          {field('line2', t.details.line2, 'address-line2')}
          {field('postal_code', t.details.postalCode, 'postal-code')}
          {field('city', t.details.city, 'address-level2')}
          {field('state', t.details.state, 'address-level1')}
          <label htmlFor={`${id}-country`}>{t.details.country}</label>
          <select
            id={`${id}-country`}
            value={address.country}
            onChange={(event) => setAddress({ ...address, country: event.target.value })}
            autoComplete="country"
            disabled={!editable}
          >
            <option value="">{t.common.notGiven}</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </fieldset>
        <fieldset>
          <legend>{t.details.registrations}</legend>
          {registrations.length === 0 && <p className="hint">{t.details.noRegistrations}</p>}
          {registrations.map((registration, index) => (
            <div className="inline-fields" key={registration.key}>
              <span>
                <label htmlFor={`${id}-reg-${registration.key}-country`}>{t.details.registrationCountry(index + 1)}</label>
                <select
                  id={`${id}-reg-${registration.key}-country`}
                  value={registration.country}
                  disabled={!editable}
                  onChange={(event) => setRegistrations(registrations.map((r) => (r.key === registration.key ? { ...r, country: event.target.value } : r)))}
                >
                  <option value="">{t.common.notGiven}</option>
                  {countries.map((country) => (
                    <option key={country.code} value={country.code}>
                      {country.name}
                    </option>
                  ))}
                </select>
              </span>
              <span>
                <label htmlFor={`${id}-reg-${registration.key}-id`}>{t.details.registrationId(index + 1)}</label>
                <input
                  id={`${id}-reg-${registration.key}-id`}
                  value={registration.id}
                  disabled={!editable}
                  onChange={(event) => setRegistrations(registrations.map((r) => (r.key === registration.key ? { ...r, id: event.target.value } : r)))}
                />
              </span>
              {editable && (
                <button type="button" className="secondary" onClick={() => setRegistrations(registrations.filter((r) => r.key !== registration.key))}>
                  {t.details.removeRegistration(index + 1)}
                </button>
              )}
            </div>
          ))}
          {editable && (
            <button
              type="button"
              className="secondary"
              onClick={() => setRegistrations([...registrations, { key: `new-${(added.current += 1)}`, country: address.country, id: '' }])}
            >
              {t.details.addRegistration}
            </button>
          )}
        </fieldset>
        <label htmlFor={`${id}-locale`}>{t.details.locale}</label>
        <select id={`${id}-locale`} value={language} onChange={(event) => setLanguage(event.target.value)}>
          {!language && <option value="">{t.common.notGiven}</option>}
          {[...new Set([...LANGUAGES, ...preferred])].map((tag) => (
            <option key={tag} value={tag} lang={tag}>
              {LANGUAGE_NAMES[tag] ?? languageNames.of(tag) ?? tag}
            </option>
          ))}
        </select>
        <ErrorMessage error={save.error} fieldLabel={fieldLabel} />
        <Notice>{notice}</Notice>
        <div>
          <button type="submit" disabled={save.pending}>
            {save.pending ? t.common.saving : t.details.save}
          </button>
        </div>
      </form>
    </>
  );
}
