/**
 * A fingerprint of an account's meters as ingestion measures with them: every meter's id, newest
 * version, status and last change. Creating a meter, versioning it (meters/update bumps `version`
 * and `updated_at`) and archiving it all change it, so a process that measured a batch with
 * meters of another fingerprint learns it from the very statement that would have stored the
 * batch (services/usage/ingest-statement.ts) and measures again.
 *
 * `accountParam` is the statement's parameter that holds the account id, e.g. `$1`.
 */
export function meterStampSql(accountParam: string): string {
  return `SELECT coalesce(md5(string_agg(
            id || ':' || version || ':' || status || ':' || floor(extract(epoch FROM updated_at) * 1000000)::bigint,
            ',' ORDER BY id COLLATE "C")), '')
          FROM meters WHERE account_id = ${accountParam}`;
}
