import { z } from 'zod';
import { PROVIDER_NAMES } from '../../services/payments/providers/registry';
import { CARD_BRANDS } from '../../domain/cards';
import { COUNTRY_CODES, isCountryCode } from '../../domain/countries';
import { CURRENCY_CODES, isCurrencyCode } from '../../domain/currencies';
import { formatDateTime, formatOptionalDateTime } from '../../domain/datetime';
import { MAX_AMOUNT } from '../../domain/payments';
import { dateTime, prefixedId } from '../common/schemas';

export const routingConfigId = prefixedId('routingConfig');
export const routingConfigVersionId = prefixedId('routingConfigVersion');

export const ROUTING_CONFIG_VERSION_STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;

const providerName = z.enum(PROVIDER_NAMES).meta({ description: 'A payment provider; see docs/sandbox.md.' });

function unique<T>(values: T[]): boolean {
  return new Set(values).size === values.length;
}

const providerList = (min: number) =>
  z
    .array(providerName)
    .min(min)
    .max(PROVIDER_NAMES.length)
    .refine(unique, { message: 'A provider can appear once per list.', params: { type: 'INVALID' } })
    .meta({ uniqueItems: true });

const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'Expected a three-letter upper-case ISO 4217 code.' })
  .refine(isCurrencyCode, { message: 'Not an ISO 4217 currency code.', params: { type: 'ENUM' } })
  .meta({ enum: CURRENCY_CODES });

const countryCode = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'Expected a three-letter upper-case ISO 3166 alpha-3 code.' })
  .refine(isCountryCode, { message: 'Not an ISO 3166 alpha-3 country code.', params: { type: 'ENUM' } })
  .meta({ enum: COUNTRY_CODES });

const amountRange = z
  .strictObject({
    min: z.number().int().min(0).max(MAX_AMOUNT).optional().meta({ description: 'Inclusive, minor units.' }),
    max: z.number().int().min(1).max(MAX_AMOUNT).optional().meta({ description: 'Exclusive, minor units.' }),
  })
  .refine((range) => range.min === undefined || range.max === undefined || range.min < range.max, {
    message: '`min` must be below `max`; `max` is exclusive.',
    path: ['max'],
    params: { type: 'INVALID' },
  });

const routeMatch = z
  .strictObject({
    currencies: z.array(currencyCode).min(1).max(200).optional(),
    amount: amountRange.optional(),
    card_brands: z.array(z.enum(CARD_BRANDS)).min(1).optional(),
    customer_countries: z.array(countryCode).min(1).max(300).optional().meta({ description: 'The customer address country.' }),
  })
  .meta({ description: 'Every condition given must hold; `{}` matches every payment.' });

const routeRule = z.strictObject({
  name: z.string().trim().min(1).regex(/\S/).max(100),
  match: routeMatch,
  providers: providerList(1).meta({ description: 'The cascade order: the next one is tried after a soft decline, an outage or a timeout.' }),
});

/** docs/routing.md. */
export const routeTree = z
  .strictObject({
    rules: z.array(routeRule).max(100),
    default_providers: providerList(0).meta({
      description: 'When no rule matches. Empty: such payments are declined with `route_not_found`.',
    }),
  })
  .superRefine((tree, ctx) => {
    const seen = new Set<string>();
    tree.rules.forEach((rule, index) => {
      if (seen.has(rule.name)) {
        ctx.addIssue({ code: 'custom', path: ['rules', index, 'name'], message: `Rule name ${rule.name} is used twice.`, params: { type: 'INVALID' } });
      }
      seen.add(rule.name);
    });
  })
  .meta({ id: 'RouteTree', description: 'The first rule whose `match` fits a payment gives its providers.' });

export const routingConfigObject = z
  .object({
    id: z.string(),
    name: z.string(),
    channel_id: z.string().optional().meta({ description: 'Absent for the account-wide configuration.' }),
    published_version_id: z.string().optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'RoutingConfig' });

export const routingConfigVersionObject = z
  .object({
    id: z.string(),
    routing_config_id: z.string(),
    version: z.number().int(),
    status: z.enum(ROUTING_CONFIG_VERSION_STATUSES),
    description: z.string().optional(),
    route_tree: routeTree,
    published_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'RoutingConfigVersion' });

export type RoutingConfigObject = z.infer<typeof routingConfigObject>;
export type RoutingConfigVersionObject = z.infer<typeof routingConfigVersionObject>;

export interface RoutingConfigRow {
  id: string;
  name: string;
  channelId: string | null;
  publishedVersionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RoutingConfigVersionRow {
  id: string;
  routingConfigId: string;
  version: number;
  status: string;
  routeTree: unknown;
  description: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function serializeRoutingConfig(row: RoutingConfigRow): RoutingConfigObject {
  return {
    id: row.id,
    name: row.name,
    ...(row.channelId !== null ? { channel_id: row.channelId } : {}),
    ...(row.publishedVersionId !== null ? { published_version_id: row.publishedVersionId } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export function serializeRoutingConfigVersion(row: RoutingConfigVersionRow): RoutingConfigVersionObject {
  return {
    id: row.id,
    routing_config_id: row.routingConfigId,
    version: row.version,
    status: row.status as RoutingConfigVersionObject['status'],
    ...(row.description !== null ? { description: row.description } : {}),
    route_tree: row.routeTree as RoutingConfigVersionObject['route_tree'],
    ...(row.publishedAt ? { published_at: formatOptionalDateTime(row.publishedAt) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
