import type { ResourceErrorCodes } from '../openapi/operation-types';

export const customerBalanceTransactionErrorCodes = {
  create: {
    BALANCE_OUT_OF_RANGE: 'The adjustment would move the customer’s balance in `currency` outside the 32-bit integer range; the balance is left as it was (docs/customer-balance.md).',
  },
} satisfies ResourceErrorCodes<'customer-balance-transactions'>;
