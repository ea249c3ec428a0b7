import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import type { Address, BusinessDetails, Configuration, CustomerObject, Tax } from './customer-object-types';
import type { Metadata } from '../../domain/metadata';

type Db = Prisma.TransactionClient;

export const customerSelect = {
  id: true,
  channelId: true,
  type: true,
  email: true,
  firstName: true,
  lastName: true,
  phone: true,
  merchantCustomerId: true,
  address: true,
  tax: true,
  status: true,
  configuration: true,
  metadata: true,
  businessDetails: true,
  createdAt: true,
  updatedAt: true,
  balances: { select: { currency: true, balance: true }, orderBy: { currency: 'asc' } },
} as const;

export type CustomerRow = Prisma.CustomerGetPayload<{ select: typeof customerSelect }>;

/** What a customer holds, in the shapes the API shows; JSON columns store them as they are. */
export interface CustomerState {
  type: 'INDIVIDUAL' | 'BUSINESS';
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  merchantCustomerId: string | null;
  address: Address | null;
  tax: Tax;
  status: 'ACTIVE' | 'INACTIVE';
  configuration: Configuration | null;
  metadata: Metadata | null;
  businessDetails: BusinessDetails | null;
}

export function stateOf(row: CustomerRow): CustomerState {
  return {
    type: row.type as CustomerState['type'],
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    phone: row.phone,
    merchantCustomerId: row.merchantCustomerId,
    address: row.address as Address | null,
    tax: row.tax as Tax,
    status: row.status as CustomerState['status'],
    configuration: row.configuration as Configuration | null,
    metadata: row.metadata as Metadata | null,
    businessDetails: row.businessDetails as BusinessDetails | null,
  };
}

function present<T>(key: string, value: T | null | undefined): Record<string, T> {
  return value === null || value === undefined ? {} : { [key]: value };
}

export function serializeCustomer(row: CustomerRow): CustomerObject {
  const state = stateOf(row);
  const common = {
    id: row.id,
    channel_id: row.channelId,
    email: state.email,
    ...present('first_name', state.firstName),
    ...present('last_name', state.lastName),
    ...present('phone', state.phone),
    ...present('merchant_customer_id', state.merchantCustomerId),
    ...present('address', state.address),
    tax: state.tax,
    status: state.status,
    ...present('configuration', state.configuration),
    ...present('metadata', state.metadata),
    ...(row.balances.length > 0 ? { balances: Object.fromEntries(row.balances.map((b) => [b.currency, b.balance])) } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
  return state.type === 'BUSINESS'
    ? { ...common, type: 'BUSINESS', ...present('business_details', state.businessDetails) }
    : { ...common, type: 'INDIVIDUAL' };
}

/** Prisma's JSON columns take `DbNull` rather than `null` for "no value". */
function json(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}

function columnsOf(state: CustomerState) {
  return {
    type: state.type,
    email: state.email,
    firstName: state.firstName,
    lastName: state.lastName,
    phone: state.phone,
    merchantCustomerId: state.merchantCustomerId,
    address: json(state.address),
    tax: state.tax as Prisma.InputJsonValue,
    status: state.status,
    configuration: json(state.configuration),
    metadata: json(state.metadata),
    businessDetails: json(state.businessDetails),
  };
}

export interface NewCustomer {
  accountId: string;
  channelId: string;
  state: CustomerState;
  now: Date;
}

export function insertCustomer(tx: Db, customer: NewCustomer) {
  return tx.customer.create({
    data: {
      id: newId('customer', customer.now.getTime()),
      accountId: customer.accountId,
      channelId: customer.channelId,
      ...columnsOf(customer.state),
      createdAt: customer.now,
      updatedAt: customer.now,
    },
    select: customerSelect,
  });
}

/**
 * `customerSelect` as one statement: Prisma reads the balances with a second query (issue 13,
 * customers/get was two round trips). The columns are named as Prisma names them, so the row is a
 * CustomerRow; test/customers/read-row.test.ts holds the two readings equal.
 */
const customerRowSql = (lock: boolean) => `
    SELECT c.id, c.channel_id AS "channelId", c.type, c.email, c.first_name AS "firstName", c.last_name AS "lastName", c.phone,
           c.merchant_customer_id AS "merchantCustomerId", c.address, c.tax, c.status, c.configuration, c.metadata,
           c.business_details AS "businessDetails", c.created_at AS "createdAt", c.updated_at AS "updatedAt",
           coalesce((SELECT json_agg(json_build_object('currency', b.currency, 'balance', b.balance) ORDER BY b.currency)
                     FROM customer_balances b WHERE b.customer_id = c.id), '[]'::json) AS balances
    FROM customers c WHERE c.id = $1 AND c.account_id = $2${lock ? ' FOR UPDATE OF c' : ''}`;

const findCustomerSql = sqlStatement('customers.find', customerRowSql(false));
const lockCustomerSql = customerRowSql(true);

export async function findCustomer(db: Database | Db, accountId: string, id: string): Promise<CustomerRow | null> {
  const [row] = await readRows<CustomerRow>(db, findCustomerSql, [id, accountId]);
  return row ?? null;
}

/** Reads the customer under its row lock, so concurrent updates apply one after the other. */
export async function lockCustomer(tx: Db, accountId: string, id: string): Promise<CustomerRow | null> {
  const [row] = await tx.$queryRawUnsafe<CustomerRow[]>(lockCustomerSql, id, accountId);
  return row ?? null;
}

const chargedCustomerSql = sqlStatement(
  'customers.charged',
  `SELECT channel_id AS "channelId", email, address FROM customers WHERE id = $1 AND account_id = $2`,
);

/** What charging needs of a customer: the channel a payment lands in, the email antifraud screens, the address routing reads. */
export async function findChargedCustomer(db: Database | Db, accountId: string, id: string) {
  const [row] = await readRows<{ channelId: string; email: string; address: Prisma.JsonValue | null }>(db, chargedCustomerSql, [id, accountId]);
  return row;
}

export function saveCustomer(tx: Db, id: string, state: CustomerState, now: Date) {
  return tx.customer.update({ where: { id }, data: { ...columnsOf(state), updatedAt: now }, select: customerSelect });
}
