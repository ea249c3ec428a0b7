import type { OperationErrorCode } from '../../domain/errors';
import { antifraudListErrorCodes } from '../antifraud-lists/error-codes';
import { apiKeyErrorCodes } from '../api-keys/error-codes';
import { couponErrorCodes } from '../coupons/error-codes';
import { creditNoteErrorCodes } from '../credit-notes/error-codes';
import { customerBalanceTransactionErrorCodes } from '../customer-balance-transactions/error-codes';
import { customerErrorCodes } from '../customers/error-codes';
import { customerPortalSessionErrorCodes } from '../customer-portal-sessions/error-codes';
import { invoiceErrorCodes } from '../invoices/error-codes';
import { meterErrorCodes } from '../meters/error-codes';
import { paymentInstrumentErrorCodes } from '../payment-instruments/error-codes';
import { productPriceErrorCodes } from '../product-prices/error-codes';
import { reportErrorCodes } from '../reports/error-codes';
import { routingConfigErrorCodes } from '../routing-configs/error-codes';
import { subscriptionErrorCodes } from '../subscriptions/error-codes';
import { usageErrorCodes } from '../usage/error-codes';
import { webhookErrorCodes } from '../webhooks/error-codes';
import type { Operations, ErrorCodeDeclaration, ResourceErrorCodes } from './operation-types';

export const IDEMPOTENCY_KEY_REUSED_WHEN =
  'The `Idempotency-Key` was used before with another operation or body (docs/idempotency.md); `context.idempotency_key`, `context.original_operation`.';

const DECLARED: { [R in keyof Operations]?: ResourceErrorCodes<R> } = {
  'api-keys': apiKeyErrorCodes,
  customers: customerErrorCodes,
  'customer-portal-sessions': customerPortalSessionErrorCodes,
  'customer-balance-transactions': customerBalanceTransactionErrorCodes,
  'payment-instruments': paymentInstrumentErrorCodes,
  'routing-configs': routingConfigErrorCodes,
  'antifraud-lists': antifraudListErrorCodes,
  'product-prices': productPriceErrorCodes,
  coupons: couponErrorCodes,
  meters: meterErrorCodes,
  invoices: invoiceErrorCodes,
  'credit-notes': creditNoteErrorCodes,
  subscriptions: subscriptionErrorCodes,
  webhooks: webhookErrorCodes,
  reports: reportErrorCodes,
  usage: usageErrorCodes,
};

/**
 * The 422 codes of the operation routed as `resources.action` (api/http/procedure-table.ts), in
 * the order declared, IDEMPOTENCY_KEY_REUSED last for a mutation.
 */
export function operationErrorCodes(dotted: string, mutation: boolean): [OperationErrorCode, string][] {
  const [resources, action] = dotted.split('.') as [string, string];
  const declared = (DECLARED as Record<string, Record<string, ErrorCodeDeclaration> | undefined>)[resources]?.[action] ?? {};
  const codes = Object.entries(declared) as [OperationErrorCode, string][];
  return mutation ? [...codes, ['IDEMPOTENCY_KEY_REUSED', IDEMPOTENCY_KEY_REUSED_WHEN]] : codes;
}
