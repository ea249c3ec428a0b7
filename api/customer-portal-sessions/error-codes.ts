import type { ResourceErrorCodes } from '../openapi/operation-types';

export const customerPortalSessionErrorCodes = {
  create: {
    INCOMPATIBLE_STATUS: 'The customer is INACTIVE: the portal is only for an ACTIVE customer. `context.status`.',
  },
} satisfies ResourceErrorCodes<'customer-portal-sessions'>;
