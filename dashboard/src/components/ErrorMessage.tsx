import { describeError } from '../api/errors';

/** A failure said in words, announced to screen readers as it appears. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {describeError(error)}
    </p>
  );
}
