/** The languages the portal speaks (docs/portal.md). */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The key of the customer's own choice in the header's switch, for this tab's session. */
export const LANGUAGE_STORAGE_KEY = 'portal:language';

function languageOf(tag: string): Language | undefined {
  const primary = tag.split(/[-_]/)[0]?.toLowerCase();
  return LANGUAGES.find((language) => language === primary);
}

/**
 * The first tag the portal speaks, in order of preference: the switch, the portal session's
 * `locale`, the customer's `preferred_locales`; English otherwise. Dates and amounts follow the
 * whole tag (`de-CH` formats as in Switzerland), the words its language.
 */
export function chooseLanguage(candidates: readonly (string | null | undefined)[]): { language: Language; locale: string } {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const language = languageOf(candidate);
    if (!language) continue;
    try {
      return { language, locale: Intl.getCanonicalLocales(candidate)[0] ?? language };
    } catch {
      return { language, locale: language };
    }
  }
  return { language: 'en', locale: 'en' };
}
