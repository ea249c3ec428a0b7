import { router } from '../trpc';
import { createAntifraudList } from './create';
import { createAntifraudListItem } from './create-item';
import { deleteAntifraudListItem } from './delete-item';
import { getAntifraudList } from './get';
import { listAntifraudLists } from './list';
import { listAntifraudListItems } from './list-item';
import { updateAntifraudList } from './update';

export const antifraudListsRouter = router({
  create: createAntifraudList,
  update: updateAntifraudList,
  list: listAntifraudLists,
  get: getAntifraudList,
  'create-item': createAntifraudListItem,
  'delete-item': deleteAntifraudListItem,
  'list-item': listAntifraudListItems,
});
