import { authorizedProcedure, operation } from '../trpc';
import { customerObject } from './schemas';
import { runCustomerUpdate, updateCustomerRequest } from './update';

/** Section 4.3 names the update operation twice; both paths are the same operation. */
export const patchCustomer = authorizedProcedure
  .meta(
    operation('customers/patch', {
      summary: 'Update a customer (alias of customers/update)',
      description: 'The same operation as /v2/customers/update, under the name the operation reference uses.',
      permission: 'customers:update',
    }),
  )
  .input(updateCustomerRequest)
  .output(customerObject)
  .mutation(({ ctx, input }) => runCustomerUpdate(ctx, input));
