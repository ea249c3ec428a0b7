import { useI18n } from '../i18n/I18n';
import { describeError, type FieldLabel } from './describeError';
import { useMerchantName } from './merchant';

/** A failure said in words, announced to screen readers as it appears. */
export function ErrorMessage({ error, fieldLabel }: { error: unknown; fieldLabel?: FieldLabel }) {
  const { t } = useI18n();
  const merchant = useMerchantName();
  if (!error) return null;
  const words = describeError(t, error, merchant, fieldLabel);
  return (
    <div role="alert" className="error">
      <p>{words.summary}</p>
      {words.fields.length > 0 && (
        <ul>
          {words.fields.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
