import { router } from '../trpc';
import { archiveMeter } from './archive';
import { createMeter } from './create';
import { getMeter } from './get';
import { listMeters } from './list';
import { updateMeter } from './update';

export const metersRouter = router({ create: createMeter, get: getMeter, list: listMeters, update: updateMeter, archive: archiveMeter });
