/**
 * The canonical form of a BCP 47 language tag (`en-us` → `en-US`), or null when it is not
 * well-formed. Canonical forms are stored so the same locale is always spelled the same way.
 */
export function canonicalLocale(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical ?? null;
  } catch {
    return null;
  }
}
