import { useId } from 'react';
import { LANGUAGES, type Language } from '../i18n/choose';
import { de } from '../i18n/de';
import { en } from '../i18n/en';
import { useI18n } from '../i18n/I18n';

/** Each language named in itself, so a reader finds theirs whatever the page speaks now. */
const NAMES: Record<Language, string> = { en: en.languageName, de: de.languageName };

export function LanguageSwitch() {
  const { t, language, setLanguage } = useI18n();
  const id = useId();
  return (
    <span className="language">
      <label htmlFor={id}>{t.common.language}</label>
      <select id={id} value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {NAMES[code]}
          </option>
        ))}
      </select>
    </span>
  );
}
