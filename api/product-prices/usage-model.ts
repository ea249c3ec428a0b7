import { z } from 'zod';
import { formatDecimal, parseDecimal } from '../../domain/usage/decimal';
import { MAX_USAGE_TIERS, MAX_USAGE_UNITS, type UsageTier } from '../../domain/usage/pricing';
import { MAX_PRICE_AMOUNT } from './schemas';

/** At most as many whole minor units as a fixed price's amount, and the 12 fractional digits of a usage decimal. */
const UNIT_AMOUNT_DECIMAL = /^\d{1,9}(\.\d{1,12})?$/;

// Stored and shown in its shortest form ("0.050" → "0.05"), so equal prices read equal.
const unitAmountDecimal = z
  .string()
  .regex(UNIT_AMOUNT_DECIMAL, { message: 'Expected a decimal string of minor units per unit: at most 9 integer and 12 fractional digits, e.g. "0.05".' })
  .transform((text) => formatDecimal(parseDecimal(text)!))
  .meta({ description: 'Minor units per unit, a decimal string (at most 12 fractional digits): "0.05" is five hundredths of a minor unit.', example: '0.05' });

const minorUnits = z.number().int().min(0).max(MAX_PRICE_AMOUNT);

const tier = z.strictObject({
  up_to: z
    .number()
    .int()
    .min(1)
    .max(MAX_USAGE_UNITS)
    .nullable()
    .meta({ description: 'The tier’s last unit, inclusive; greater than the previous tier’s. null on the last tier (open-ended), and only there.' }),
  unit_amount_decimal: unitAmountDecimal,
  flat_amount: minorUnits.default(0).meta({ description: 'Minor units charged once when any unit falls in the tier (GRADUATED) or the total lands in it (VOLUME); 0 when left out.' }),
});

function tierOrder(tiers: readonly UsageTier[], ctx: z.RefinementCtx): void {
  for (const [index, { up_to }] of tiers.entries()) {
    const last = index === tiers.length - 1;
    const previous = index > 0 ? tiers[index - 1]!.up_to : null;
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: [index, 'up_to'], message, params: { type: 'INVALID' } });
    if (last && up_to !== null) issue('The last tier is open-ended: its up_to is null.');
    else if (!last && up_to === null) issue('Only the last tier is open-ended (up_to null).');
    else if (up_to !== null && previous !== null && up_to <= previous) issue(`Must be greater than the previous tier’s up_to (${previous}).`);
  }
}

const tiers = z
  .array(tier)
  .min(1)
  .max(MAX_USAGE_TIERS)
  .superRefine(tierOrder)
  .meta({ description: `1 to ${MAX_USAGE_TIERS} tiers, ascending by up_to, the last open-ended.` });

/** `usage_model` of product-prices/create (docs/usage.md, "Usage prices"). */
export const usageModelRequest = z
  .discriminatedUnion('model', [
    z.strictObject({ model: z.literal('PER_UNIT'), unit_amount_decimal: unitAmountDecimal }),
    z.strictObject({
      model: z.literal('PACKAGE'),
      package_size: z.number().int().min(1).max(MAX_USAGE_UNITS).meta({ description: 'Units per package; every package started is charged whole.' }),
      package_amount: minorUnits.meta({ description: 'Minor units per package.' }),
    }),
    z.strictObject({ model: z.literal('GRADUATED'), tiers: tiers.meta({ description: 'Each tier charges the units that fall inside it.' }) }),
    z.strictObject({ model: z.literal('VOLUME'), tiers: tiers.meta({ description: 'Every unit at the price of the tier the total lands in.' }) }),
  ])
  .meta({ description: 'How the meter’s quantity for a period becomes an amount: exact, rounded half up once per line.' });
