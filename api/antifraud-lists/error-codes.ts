import type { ResourceErrorCodes } from '../openapi/operation-types';

const DISABLED = { INCOMPATIBLE_STATUS: 'Antifraud is disabled for the account (`context.antifraud_enabled: false`); docs/antifraud.md.' };

export const antifraudListErrorCodes = {
  create: DISABLED,
  update: DISABLED,
  list: DISABLED,
  get: DISABLED,
  'create-item': {
    ITEM_ALREADY_EXISTS: 'An unexpired item of the list already holds the same normalised value; `context.item_id` names it.',
    ...DISABLED,
  },
  'delete-item': DISABLED,
  'list-item': DISABLED,
} satisfies ResourceErrorCodes<'antifraud-lists'>;
