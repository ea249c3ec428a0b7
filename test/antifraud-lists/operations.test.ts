import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cardFingerprint } from '../../domain/card-fingerprint';
import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { setAntifraudEnabled } from '../../scripts/operator/antifraud';
import { signedInUser } from '../dashboard-api/browser-session';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const ROOT = join(__dirname, '../..');
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const FINGERPRINT = cardFingerprint(new Uint8Array(32), '4242424242424242');

async function createList(field: string, action = 'BLOCK', name = `${field} ${action}`, secret?: string): Promise<string> {
  const res = await platform.call('/v2/antifraud-lists/create', { name, field, action }, { secret });
  expect(res.status).toBe(200);
  return res.body.id;
}

async function addItem(listId: string, fieldValue: string, extra: Record<string, unknown> = {}, secret?: string) {
  const res = await platform.call('/v2/antifraud-lists/create-item', { list_id: listId, field_value: fieldValue, ...extra }, { secret });
  expect(res.status).toBe(200);
  return res.body;
}

function constraintOf(res: { status: number; body: any }, path: string): string {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('VALIDATION');
  return res.body.context.constraints[path]?.type;
}

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('antifraud-lists/create, get and update', () => {
  it('creates a list with a bare ULID and reads it back', async () => {
    const created = await platform.call('/v2/antifraud-lists/create', { name: '  Known fraudsters ', field: 'CUSTOMER_EMAIL', action: 'BLOCK' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(ULID),
      name: 'Known fraudsters',
      field: 'CUSTOMER_EMAIL',
      action: 'BLOCK',
      created_at: expect.stringMatching(DATE_TIME),
      updated_at: created.body.created_at,
    });
    const fetched = await platform.call('/v2/antifraud-lists/get', { id: created.body.id });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
    const lowercase = await platform.call('/v2/antifraud-lists/get', { id: created.body.id.toLowerCase() });
    expect(lowercase.body).toEqual(created.body);
  });

  it('creates a list from the spec’s {name, field} alone as a BLOCK list; action stays optional in the reference', async () => {
    const created = await platform.call('/v2/antifraud-lists/create', { name: 'Spec shaped', field: 'IP_ADDRESS' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Spec shaped', field: 'IP_ADDRESS', action: 'BLOCK' });
    expect((await platform.call('/v2/antifraud-lists/get', { id: created.body.id })).body).toEqual(created.body);
    const allowing = await platform.call('/v2/antifraud-lists/create', { name: 'Allowed', field: 'IP_ADDRESS', action: 'ALLOW' });
    expect(allowing.body.action).toBe('ALLOW');

    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    const schema = document.paths['/v2/antifraud-lists/create'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['name', 'field']);
    expect(schema.properties.action.default).toBe('BLOCK');
  });

  it('validates the create request', async () => {
    const valid = { name: 'x', field: 'IP_ADDRESS', action: 'BLOCK' };
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, field: 'PHONE' }), 'field')).toBe('ENUM');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, action: 'REVIEW' }), 'action')).toBe('ENUM');
    // A missing enum is reported as ENUM today (api/errors/zod-constraints.ts maps zod's invalid_value
    // without looking at the input); what matters here is that it is refused on that field.
    const { field: _field, ...withoutField } = valid;
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', withoutField), 'field')).toBeDefined();
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, name: undefined }), 'name')).toBe('REQUIRED');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, name: '   ' }), 'name')).toBe('MIN');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, name: 'n'.repeat(101) }), 'name')).toBe('MAX');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create', { ...valid, colour: 'red' }), 'colour')).toBe('UNKNOWN_FIELD');
  });

  it('updates name and action, never field, and bumps updated_at only', async () => {
    const id = await createList('CARDHOLDER', 'BLOCK', 'Before');
    const before = await platform.call('/v2/antifraud-lists/get', { id });
    const renamed = await platform.call('/v2/antifraud-lists/update', { id, name: 'After' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'After', field: 'CARDHOLDER', action: 'BLOCK', created_at: before.body.created_at });
    expect(renamed.body.updated_at > before.body.updated_at).toBe(true);

    const flipped = await platform.call('/v2/antifraud-lists/update', { id, action: 'ALLOW' });
    expect(flipped.body).toMatchObject({ name: 'After', action: 'ALLOW' });
    expect((await platform.call('/v2/antifraud-lists/get', { id })).body).toEqual(flipped.body);

    expect(constraintOf(await platform.call('/v2/antifraud-lists/update', { id, field: 'IP_ADDRESS' }), 'field')).toBe('UNKNOWN_FIELD');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/update', { id }), 'body')).toBe('REQUIRED');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/update', { id, action: 'MAYBE' }), 'action')).toBe('ENUM');
    expect((await platform.call('/v2/antifraud-lists/get', { id })).body.field).toBe('CARDHOLDER');
  });

  it('answers 404 for unknown lists and those of other accounts, 400 for malformed ids', async () => {
    const other = await createAccount(platform.db, 'Other');
    const { secret } = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    const foreign = await createList('CARD_ID', 'BLOCK', 'foreign', secret);
    const unknown = '01JZZZZZZZZZZZZZZZZZZZZZZZ';

    for (const id of [foreign, unknown]) {
      const get = await platform.call('/v2/antifraud-lists/get', { id });
      expect(get.status).toBe(404);
      expect(get.body.code).toBe('NOT_FOUND');
      expect((await platform.call('/v2/antifraud-lists/update', { id, name: 'mine now' })).status).toBe(404);
      expect((await platform.call('/v2/antifraud-lists/create-item', { list_id: id, field_value: 'pi_1' })).status).toBe(404);
      expect((await platform.call('/v2/antifraud-lists/list-item', { list_id: id })).status).toBe(404);
    }
    expect((await platform.call('/v2/antifraud-lists/get', { id: foreign }, { secret })).status).toBe(200);
    expect(constraintOf(await platform.call('/v2/antifraud-lists/get', { id: 'akey_01abc' }), 'id')).toBe('FORMAT');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/get', { id: `${unknown}0` }), 'id')).toBe('FORMAT');
  });

  it('replays a create under the same Idempotency-Key and creates one list', async () => {
    const headers = { 'idempotency-key': 'antifraud-create-1' };
    const body = { name: 'Idempotent list', field: 'IP_ADDRESS', action: 'ALLOW' };
    const first = await platform.call('/v2/antifraud-lists/create', body, { headers });
    const retry = await platform.call('/v2/antifraud-lists/create', body, { headers });
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await platform.db.antifraudList.count({ where: { name: 'Idempotent list' } })).toBe(1);
  });
});

describe('antifraud-lists/list', () => {
  it('filters on field with EQ and pages newest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createList('CUSTOMER_ID', i % 2 ? 'ALLOW' : 'BLOCK', `paged ${i}`));
    await createList('IP_ADDRESS', 'BLOCK', 'not customer ids');

    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const res = await platform.call('/v2/antifraud-lists/list', {
        filters: { field: { operator: 'EQ', value: 'CUSTOMER_ID' } },
        pagination: { page_size: 2, ...(token ? { next_page_token: token } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.body.items.every((l: { field: string }) => l.field === 'CUSTOMER_ID')).toBe(true);
      seen.push(...res.body.items.map((l: { id: string }) => l.id));
      token = res.body.pagination.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const all = await platform.call('/v2/antifraud-lists/list', { pagination: { page_size: 100 } });
    const fields = new Set(all.body.items.map((l: { field: string }) => l.field));
    expect(fields.has('IP_ADDRESS') && fields.has('CUSTOMER_ID')).toBe(true);
    const allIds = all.body.items.map((l: { id: string }) => l.id);
    expect(allIds).toEqual([...allIds].sort().reverse());
  });

  it('validates the field filter and binds a page token to its filters', async () => {
    expect(constraintOf(await platform.call('/v2/antifraud-lists/list', { filters: { field: { operator: 'NEQ', value: 'CARD_ID' } } }), 'filters.field.operator')).toBe('ENUM');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/list', { filters: { field: { operator: 'EQ', value: 'PHONE' } } }), 'filters.field.value')).toBe('ENUM');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/list', { filters: { action: { operator: 'EQ', value: 'BLOCK' } } }), 'filters.action')).toBe('UNKNOWN_FIELD');

    const first = await platform.call('/v2/antifraud-lists/list', { filters: { field: { operator: 'EQ', value: 'CUSTOMER_ID' } }, pagination: { page_size: 1 } });
    const token = first.body.pagination.next_page_token;
    expect(token).not.toBe('');
    const reused = await platform.call('/v2/antifraud-lists/list', { filters: { field: { operator: 'EQ', value: 'IP_ADDRESS' } }, pagination: { page_size: 1, next_page_token: token } });
    expect(constraintOf(reused, 'pagination.next_page_token')).toBe('FORMAT');
  });
});

describe('antifraud-lists/create-item', () => {
  const cases: Array<{ field: string; valid: Array<[string, string]>; invalid: Array<[string, string]> }> = [
    {
      field: 'IP_ADDRESS',
      valid: [
        ['203.0.113.7', '203.0.113.7'],
        [' 2001:DB8:0:0::1 ', '2001:db8::1'],
        ['::ffff:198.51.100.4', '198.51.100.4'],
      ],
      invalid: [
        ['999.1.1.1', 'FORMAT'],
        ['localhost', 'FORMAT'],
      ],
    },
    {
      field: 'CUSTOMER_EMAIL',
      valid: [[' Alice@Example.COM ', 'alice@example.com']],
      invalid: [
        ['alice@', 'FORMAT'],
        ['not an e-mail', 'FORMAT'],
      ],
    },
    {
      field: 'CUSTOMER_ID',
      valid: [['cust_01jabcdefghjkmnpqrstvwxyz0', 'cust_01jabcdefghjkmnpqrstvwxyz0']],
      invalid: [
        ['akey_01jabc', 'FORMAT'],
        ['cust_', 'FORMAT'],
        ['CUST_01JABC', 'FORMAT'],
      ],
    },
    {
      field: 'CARDHOLDER',
      // Characters are code points, as the document's maxLength counts them: 200 emoji are 400 UTF-16 units.
      valid: [
        ['  john   smith ', 'JOHN SMITH'],
        ['\u{1F60D}'.repeat(200), '\u{1F60D}'.repeat(200)],
      ],
      invalid: [
        ['x'.repeat(201), 'MAX'],
        ['\u{1F60D}'.repeat(201), 'MAX'],
      ],
    },
    {
      field: 'CARD_ID',
      valid: [
        ['pi_01jabcdefghjkmnpqrstvwxyz0', 'pi_01jabcdefghjkmnpqrstvwxyz0'],
        [FINGERPRINT, FINGERPRINT],
      ],
      invalid: [
        ['card-123', 'FORMAT'],
        [FINGERPRINT.slice(1), 'FORMAT'],
        [`${FINGERPRINT.slice(1)}+`, 'FORMAT'],
      ],
    },
  ];

  it.each(cases)('validates and normalises values of a $field list', async ({ field, valid, invalid }) => {
    const listId = await createList(field, 'BLOCK', `values of ${field}`);
    for (const [value, stored] of valid) {
      const item = await addItem(listId, value);
      expect(item.field_value).toBe(stored);
    }
    for (const [value, type] of invalid) {
      const res = await platform.call('/v2/antifraud-lists/create-item', { list_id: listId, field_value: value });
      expect([value, constraintOf(res, 'field_value')]).toEqual([value, type]);
    }
    expect(await platform.db.antifraudListItem.count({ where: { listId } })).toBe(valid.length);
  });

  it('records every field of an item; created_by is a user’s e-mail only, the calling key in created_by_api_key_id', async () => {
    const listId = await createList('CUSTOMER_EMAIL');
    const { row, secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'items' });
    const expiredAt = inOneHour();
    const item = await addItem(listId, 'record@example.com', { expired_at: expiredAt, description: 'chargeback 2026-03' }, secret);
    expect(item).toEqual({
      id: expect.stringMatching(ULID),
      list_id: listId,
      field_value: 'record@example.com',
      expired_at: expiredAt.replace(/Z$/, '000Z'),
      description: 'chargeback 2026-03',
      created_by_api_key_id: row.id,
      created_at: expect.stringMatching(DATE_TIME),
      updated_at: item.created_at,
    });
    const byUser = await addItem(listId, 'other@example.com', { created_by: 'Ops.Lead@Example.com' }, secret);
    expect(byUser).toMatchObject({ created_by: 'ops.lead@example.com', created_by_api_key_id: row.id });
    expect(byUser).not.toHaveProperty('expired_at');
    expect(byUser).not.toHaveProperty('description');
  });

  it('records the signed-in dashboard user’s e-mail as created_by, and no key', async () => {
    const listId = await createList('CUSTOMER_EMAIL');
    const browser = await signedInUser(platform, 'Risk.Analyst@merchant.example', 'MERCHANT_ADMIN');
    const res = await browser.post('/v2/antifraud-lists/create-item', { list_id: listId, field_value: 'session@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.created_by).toBe('risk.analyst@merchant.example');
    expect(res.body).not.toHaveProperty('created_by_api_key_id');
  });

  it('validates expired_at, created_by, list_id and unknown fields', async () => {
    const listId = await createList('CUSTOMER_ID');
    const base = { list_id: listId, field_value: 'cust_01abc' };
    const past = new Date(Date.now() - 1000).toISOString();
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, expired_at: past }), 'expired_at')).toBe('MIN');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, expired_at: '2030-01-01' }), 'expired_at')).toBe('FORMAT');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, created_by: 'akey_01abc' }), 'created_by')).toBe('FORMAT');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, list_id: 'not-a-ulid' }), 'list_id')).toBe('FORMAT');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, field_value: '  ' }), 'field_value')).toBe('MIN');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, description: 'd'.repeat(501) }), 'description')).toBe('MAX');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { ...base, field: 'CUSTOMER_ID' }), 'field')).toBe('UNKNOWN_FIELD');
    expect(constraintOf(await platform.call('/v2/antifraud-lists/create-item', { field_value: 'cust_01abc' }), 'list_id')).toBe('REQUIRED');
    expect(await platform.db.antifraudListItem.count({ where: { listId } })).toBe(0);
  });

  it('refuses a value the list already holds unexpired with 422 ITEM_ALREADY_EXISTS', async () => {
    const listId = await createList('CUSTOMER_EMAIL');
    const first = await addItem(listId, 'dup@example.com');
    const again = await platform.call('/v2/antifraud-lists/create-item', { list_id: listId, field_value: ' DUP@example.com' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      code: 'ITEM_ALREADY_EXISTS',
      message: expect.any(String),
      context: { item_id: first.id, field_value: 'dup@example.com' },
    });
    const elsewhere = await createList('CUSTOMER_EMAIL');
    await addItem(elsewhere, 'dup@example.com');

    await platform.db.antifraudListItem.update({ where: { id: first.id }, data: { expiredAt: new Date(Date.now() - 1000) } });
    const renewed = await addItem(listId, 'dup@example.com');
    expect(renewed.id).not.toBe(first.id);
  });

  it('lets only one of two concurrent identical creates through', async () => {
    const listId = await createList('CARD_ID');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => platform.call('/v2/antifraud-lists/create-item', { list_id: listId, field_value: 'pi_race' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
    expect(await platform.db.antifraudListItem.count({ where: { listId } })).toBe(1);
  });
});

describe('antifraud-lists/delete-item', () => {
  it('removes the item for good and answers 404 after', async () => {
    const listId = await createList('CARDHOLDER');
    const item = await addItem(listId, 'Jane Doe');
    const deleted = await platform.call('/v2/antifraud-lists/delete-item', { id: item.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(item);
    expect(await platform.db.antifraudListItem.count({ where: { id: item.id } })).toBe(0);
    const listed = await platform.call('/v2/antifraud-lists/list-item', { list_id: listId });
    expect(listed.body.items).toEqual([]);

    const again = await platform.call('/v2/antifraud-lists/delete-item', { id: item.id });
    expect(again.status).toBe(404);
    expect(constraintOf(await platform.call('/v2/antifraud-lists/delete-item', { id: 'pi_1' }), 'id')).toBe('FORMAT');
  });

  it('does not reach an item of another account', async () => {
    const other = await createAccount(platform.db, 'Other for items');
    const { secret } = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    const foreignList = await createList('CARDHOLDER', 'BLOCK', 'foreign', secret);
    const foreignItem = await addItem(foreignList, 'Foreign Name', {}, secret);
    expect((await platform.call('/v2/antifraud-lists/delete-item', { id: foreignItem.id })).status).toBe(404);
    const mine = await platform.call('/v2/antifraud-lists/list-item', { filters: { field_value: { operator: 'CONTAINS', value: 'FOREIGN' } } });
    expect(mine.body.items).toEqual([]);
    expect(await platform.db.antifraudListItem.count({ where: { id: foreignItem.id } })).toBe(1);
  });
});

describe('antifraud-lists/list-item', () => {
  let listId: string;
  let items: Array<{ id: string; field_value: string; created_at: string; created_by?: string }>;
  let keyId: string;

  beforeAll(async () => {
    listId = await createList('CUSTOMER_EMAIL', 'BLOCK', 'list-item filters');
    const { row, secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'filters' });
    keyId = row.id;
    items = [];
    for (let i = 0; i < 6; i++) {
      const extra = i % 2 ? { created_by: 'Analyst@Merchant.example' } : {};
      items.push(await addItem(listId, `buyer${i}@shop${i < 3 ? 'one' : 'two'}.example`, extra, secret));
    }
  });

  const listItems = (body: Record<string, unknown>) =>
    platform.call('/v2/antifraud-lists/list-item', { list_id: listId, pagination: { page_size: 100 }, ...body });

  const idsOf = (res: { body: any }) => res.body.items.map((i: { id: string }) => i.id);
  const newestFirst = (selected: typeof items) => selected.map((i) => i.id).reverse();

  it('lists the items of one list, newest first, across several pages', async () => {
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const res = await platform.call('/v2/antifraud-lists/list-item', {
        list_id: listId,
        pagination: { page_size: 4, ...(token ? { next_page_token: token } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      token = res.body.pagination.next_page_token;
      pages++;
    } while (token);
    expect(pages).toBe(2);
    expect(seen).toEqual(newestFirst(items));
  });

  it('lists items of every list when list_id is left out', async () => {
    const otherList = await createList('CARD_ID', 'BLOCK', 'another list');
    const other = await addItem(otherList, 'pi_listeverything');
    const res = await platform.call('/v2/antifraud-lists/list-item', { pagination: { page_size: 100 } });
    const ids = idsOf(res);
    expect(ids).toEqual(expect.arrayContaining([other.id, ...items.map((i) => i.id)]));
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('filters field_value with CONTAINS, case-insensitively', async () => {
    const res = await listItems({ filters: { field_value: { operator: 'CONTAINS', value: 'SHOPTWO' } } });
    expect(idsOf(res)).toEqual(newestFirst(items.slice(3)));
    const none = await listItems({ filters: { field_value: { operator: 'CONTAINS', value: 'nowhere' } } });
    expect(none.body.items).toEqual([]);
    const eq = await listItems({ filters: { field_value: { operator: 'EQ', value: 'buyer0@shopone.example' } } });
    expect(constraintOf(eq, 'filters.field_value.operator')).toBe('ENUM');
  });

  it('filters created_at with RANGE given as {from, to}, {from}, {to} or a plain date-time', async () => {
    const from = items[2]!.created_at;
    const to = items[4]!.created_at;
    const between = items.filter((i) => i.created_at >= from && i.created_at < to);
    const since = items.filter((i) => i.created_at >= from);
    const before = items.filter((i) => i.created_at < to);
    expect(between.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(items.length);

    expect(idsOf(await listItems({ filters: { created_at: { operator: 'RANGE', value: { from, to } } } }))).toEqual(newestFirst(between));
    expect(idsOf(await listItems({ filters: { created_at: { operator: 'RANGE', value: { from } } } }))).toEqual(newestFirst(since));
    expect(idsOf(await listItems({ filters: { created_at: { operator: 'RANGE', value: { to } } } }))).toEqual(newestFirst(before));
    expect(idsOf(await listItems({ filters: { created_at: { operator: 'RANGE', value: from } } }))).toEqual(newestFirst(since));

    const empty = await listItems({ filters: { created_at: { operator: 'RANGE', value: {} } } });
    expect(constraintOf(empty, 'filters.created_at.value')).toBe('REQUIRED');
    const malformed = await listItems({ filters: { created_at: { operator: 'RANGE', value: 'yesterday' } } });
    expect(malformed.status).toBe(400);
    const wrongOperator = await listItems({ filters: { created_at: { operator: 'EQ', value: from } } });
    expect(constraintOf(wrongOperator, 'filters.created_at.operator')).toBe('ENUM');
  });

  it('filters created_by with EQ on any string, and the calling key with created_by_api_key_id', async () => {
    const byUser = await listItems({ filters: { created_by: { operator: 'EQ', value: 'analyst@merchant.example' } } });
    expect(idsOf(byUser)).toEqual(newestFirst(items.filter((_, i) => i % 2 === 1)));
    const spelledOtherwise = await listItems({ filters: { created_by: { operator: 'EQ', value: 'ANALYST@merchant.example' } } });
    expect(idsOf(spelledOtherwise)).toEqual(idsOf(byUser));

    const byKey = await listItems({ filters: { created_by_api_key_id: { operator: 'EQ', value: keyId } } });
    expect(idsOf(byKey)).toEqual(newestFirst(items));
    expect(idsOf(await listItems({ filters: { created_by: { operator: 'EQ', value: keyId } } }))).toEqual([]);

    const combined = await listItems({
      filters: { created_by_api_key_id: { operator: 'EQ', value: keyId }, field_value: { operator: 'CONTAINS', value: 'shopone' } },
    });
    expect(idsOf(combined)).toEqual([items[2]!.id, items[1]!.id, items[0]!.id]);

    for (const value of ['bob', 'Risk team', '']) {
      const any = await listItems({ filters: { created_by: { operator: 'EQ', value } } });
      expect({ value, status: any.status, items: any.body.items }).toEqual({ value, status: 200, items: [] });
    }
    expect(constraintOf(await listItems({ filters: { created_by: { operator: 'CONTAINS', value: 'analyst' } } }), 'filters.created_by.operator')).toBe('ENUM');
  });

  it('binds a page token to list_id and filters', async () => {
    const first = await listItems({ pagination: { page_size: 1 } });
    const token = first.body.pagination.next_page_token;
    const otherList = await createList('CUSTOMER_EMAIL');
    const moved = await platform.call('/v2/antifraud-lists/list-item', { list_id: otherList, pagination: { page_size: 1, next_page_token: token } });
    expect(constraintOf(moved, 'pagination.next_page_token')).toBe('FORMAT');
  });
});

describe('keys and accounts', () => {
  it('lets a channel-bound key use the account-wide lists', async () => {
    const { secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'shop', channelIds: [platform.channelIds[1]] });
    const listId = await createList('IP_ADDRESS', 'BLOCK', 'from a channel key', secret);
    const item = await addItem(listId, '192.0.2.44', {}, secret);
    const seenByRoot = await platform.call('/v2/antifraud-lists/list-item', { list_id: listId });
    expect(seenByRoot.body.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect((await platform.call('/v2/antifraud-lists/get', { id: listId }, { secret })).status).toBe(200);
  });

  it('needs the operation’s permission', async () => {
    const { secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'reader', permissions: ['antifraud-lists:list'] });
    expect((await platform.call('/v2/antifraud-lists/list', {}, { secret })).status).toBe(200);
    const refused = await platform.call('/v2/antifraud-lists/create-item', { list_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', field_value: 'x' }, { secret });
    expect(refused.status).toBe(403);
    expect(refused.body.context).toEqual({ required_permission: 'antifraud-lists:create-item' });
  });

  it('answers 422 INCOMPATIBLE_STATUS to every operation while antifraud is disabled, and works again once enabled', async () => {
    const account = await createAccount(platform.db, 'Antifraud off');
    const { secret } = await createOperatorApiKey(platform.db, { accountId: account.id, name: 'off' });
    const listId = await createList('CUSTOMER_ID', 'BLOCK', 'kept', secret);
    const item = await addItem(listId, 'cust_kept', {}, secret);

    await setAntifraudEnabled(platform.db, account.id, false);
    const requests: Array<[string, unknown]> = [
      ['create', { name: 'n', field: 'IP_ADDRESS', action: 'BLOCK' }],
      ['update', { id: listId, name: 'renamed' }],
      ['list', {}],
      ['get', { id: listId }],
      ['create-item', { list_id: listId, field_value: 'cust_new' }],
      ['delete-item', { id: item.id }],
      ['list-item', { list_id: listId }],
    ];
    for (const [action, body] of requests) {
      const res = await platform.call(`/v2/antifraud-lists/${action}`, body, { secret });
      expect([action, res.status, res.body.code]).toEqual([action, 422, 'INCOMPATIBLE_STATUS']);
    }
    expect(constraintOf(await platform.call('/v2/antifraud-lists/list', { filters: { field: { operator: 'EQ', value: 'NOPE' } } }, { secret }), 'filters.field.value')).toBe('ENUM');
    expect(await platform.db.antifraudList.count({ where: { accountId: account.id } })).toBe(1);
    expect(await platform.db.antifraudListItem.count({ where: { accountId: account.id } })).toBe(1);
    expect((await platform.call('/v2/antifraud-lists/list', {})).status).toBe(200);

    await setAntifraudEnabled(platform.db, account.id, true);
    const listed = await platform.call('/v2/antifraud-lists/list-item', { list_id: listId }, { secret });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
  });

  it('is switched by the operator command set-antifraud', async () => {
    const account = await createAccount(platform.db, 'Switched from the shell');
    const [database] = await platform.db.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
    const databaseUrl = process.env.TEST_ADMIN_DATABASE_URL!.replace(/\/[^/]+$/, `/${database!.name}`);
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/operator.ts'), ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      });
    const off = await run('set-antifraud', '--account', account.id, '--enabled', 'false');
    expect(JSON.parse(off.stdout)).toEqual({ id: account.id, antifraud_enabled: false });
    expect((await platform.db.account.findUniqueOrThrow({ where: { id: account.id } })).antifraudEnabled).toBe(false);
    await run('set-antifraud', '--account', account.id, '--enabled', 'true');
    expect((await platform.db.account.findUniqueOrThrow({ where: { id: account.id } })).antifraudEnabled).toBe(true);
    await expect(run('set-antifraud', '--account', account.id, '--enabled', 'yes')).rejects.toMatchObject({ stderr: expect.stringContaining('--enabled') });
    await expect(run('set-antifraud', '--account', 'acct_missing', '--enabled', 'true')).rejects.toMatchObject({ stderr: expect.stringContaining('does not exist') });
  });
});
