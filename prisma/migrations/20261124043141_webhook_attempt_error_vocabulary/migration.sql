-- Failed delivery attempts show a fixed vocabulary (docs/webhooks.md, domain/webhook-delivery-failure.ts);
-- attempts recorded before carried the network stack's own text after TIMEOUT: or CONNECTION_ERROR:.
UPDATE "webhook_delivery_attempts"
SET "error" = CASE
    WHEN "error" LIKE 'TIMEOUT%' THEN 'TIMEOUT'
    WHEN "error" = 'CONNECTION_ERROR: ECONNREFUSED' THEN 'CONNECTION_REFUSED'
    WHEN "error" IN ('CONNECTION_ERROR: ENOTFOUND', 'CONNECTION_ERROR: EAI_AGAIN') THEN 'DNS_ERROR'
    WHEN "error" ~ '^CONNECTION_ERROR: (ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)' THEN 'TLS_ERROR'
    ELSE 'CONNECTION_ERROR'
END
WHERE "error" IS NOT NULL
  AND "error" !~ '^HTTP_[0-9]+$'
  AND "error" NOT IN ('TIMEOUT', 'CONNECTION_REFUSED', 'TLS_ERROR', 'DNS_ERROR', 'ADDRESS_REFUSED', 'CONNECTION_ERROR');
