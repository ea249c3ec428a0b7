import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { chooseLanguage, LANGUAGE_STORAGE_KEY, type Language } from './choose';
import { de } from './de';
import { en, type Messages } from './en';
import { formatDate, formatDateTime, formatMoney, formatQuantity } from './format';

const MESSAGES: Record<Language, Messages> = { en, de };

export interface I18n {
  t: Messages;
  language: Language;
  locale: string;
  setLanguage(language: Language): void;
  money(minor: number, currency: string): string;
  date(iso: string): string;
  dateTime(iso: string): string;
  quantity(value: string | number): string;
}

const I18nContext = createContext<I18n | null>(null);

function storedLanguage(): string | null {
  try {
    return sessionStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** `preferred`: the session's locale and the customer's preferred locales, most preferred first. */
export function I18nProvider({ preferred, children }: { preferred: readonly (string | null | undefined)[]; children: ReactNode }) {
  const [chosen, setChosen] = useState<string | null>(storedLanguage);
  const { language, locale } = chooseLanguage([chosen, ...preferred]);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const value = useMemo<I18n>(
    () => ({
      t: MESSAGES[language],
      language,
      locale,
      setLanguage(next) {
        try {
          sessionStorage.setItem(LANGUAGE_STORAGE_KEY, next);
        } catch {
          // Storage refused (private mode): the choice lasts until the page is reloaded.
        }
        setChosen(next);
      },
      money: (minor, currency) => formatMoney(locale, minor, currency),
      date: (iso) => formatDate(locale, iso),
      dateTime: (iso) => formatDateTime(locale, iso),
      quantity: (value) => formatQuantity(locale, value),
    }),
    [language, locale],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
