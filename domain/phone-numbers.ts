import { parsePhoneNumberFromString, type CountryCode as PhoneRegion } from 'libphonenumber-js/max';
import { alpha2Of, isCountryCode } from './countries';

/**
 * Section 2.2 gives `phone` no format, so none is refused. A number libphonenumber-js reads as a
 * valid one, international or national in the customer's address country, is stored in E.164
 * (`+15551234567`); anything else is kept as written, trimmed.
 *
 * `max` metadata: it validates a number against its country's ranges of fixed-line, mobile and
 * other numbers, where `min` checks lengths only. A national number is read in a country the
 * customer may not dial from, so only a number that exists there is rewritten: under `min`,
 * `01574824325` in Germany passes as `+491574824325`, a mobile number one digit short. The
 * larger metadata costs nothing here: it is loaded once on the server, never sent to a browser.
 * A number with an extension stays as written: E.164 has no place for it.
 */
export function storedPhoneNumber(written: string, addressCountry?: string): string {
  const trimmed = written.trim();
  const defaultCountry = addressCountry && isCountryCode(addressCountry) ? (alpha2Of(addressCountry) as PhoneRegion) : undefined;
  const parsed = parsePhoneNumberFromString(trimmed, { defaultCountry, extract: false });
  return parsed && parsed.isValid() && !parsed.ext ? parsed.number : trimmed;
}
