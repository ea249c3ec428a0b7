import { usePlatform } from '../support/platform';

const platform = usePlatform();

const keyRequest = { name: 'idempotent', permissions: ['invoices:get'] };

describe('Idempotency-Key', () => {
  it('replays the first response to a retry with the same key and body, creating one key', async () => {
    const headers = { 'idempotency-key': 'create-1' };
    const first = await platform.call('/v2/api-keys/create', keyRequest, { headers });
    const retry = await platform.call('/v2/api-keys/create', { permissions: ['invoices:get'], name: 'idempotent' }, { headers });
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await platform.db.apiKey.count({ where: { name: 'idempotent' } })).toBe(1);
  });

  it('refuses the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const headers = { 'idempotency-key': 'create-2' };
    await platform.call('/v2/api-keys/create', keyRequest, { headers });
    const different = await platform.call('/v2/api-keys/create', { ...keyRequest, name: 'other' }, { headers });
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await platform.db.apiKey.count({ where: { name: 'other' } })).toBe(0);
  });

  it('runs concurrent duplicates once and gives both the same answer', async () => {
    const headers = { 'idempotency-key': 'rotate-race' };
    const key = await platform.call('/v2/api-keys/create', { name: 'race', permissions: ['invoices:get'] });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => platform.call('/v2/api-keys/rotate', { id: key.body.id, rotation_period: 60 }, { headers })),
    );
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body.rotate_secret).toBe(results[0]!.body.rotate_secret);
    }
    expect(await platform.db.apiKeySecret.count({ where: { apiKeyId: key.body.id } })).toBe(2);

    // The losers rolled back after starting their rotation workflows; when those fire they
    // must not touch the winner's secret.
    await platform.env.sleep('2 minutes');
    const get = (secret: string) => platform.call('/v2/api-keys/get', { id: key.body.id }, { secret });
    expect((await get(results[0]!.body.rotate_secret)).status).toBe(403);
    expect((await get(key.body.secret)).status).toBe(401);
  });

  it('replays a business refusal the same way', async () => {
    const headers = { 'idempotency-key': 'refused' };
    const body = { name: 'x', channel_ids: ['chn_doesnotexist'], permissions: ['invoices:get'] };
    const first = await platform.call('/v2/api-keys/create', body, { headers });
    const retry = await platform.call('/v2/api-keys/create', body, { headers });
    expect(first.status).toBe(422);
    expect(retry.status).toBe(422);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys to the API key that sent them and keeps them at least 24 hours', async () => {
    const headers = { 'idempotency-key': 'scoped' };
    const first = await platform.call('/v2/api-keys/create', keyRequest, { headers });
    const other = await platform.call('/v2/api-keys/create', { ...keyRequest, permissions: ['invoices:get', 'api-keys:create'] });
    const fromOther = await platform.call('/v2/api-keys/create', keyRequest, { headers, secret: other.body.secret });
    expect(fromOther.status).toBe(200);
    expect(fromOther.body.id).not.toBe(first.body.id);
    const record = await platform.db.idempotencyRecord.findFirstOrThrow({ where: { key: 'scoped' } });
    expect(record.expiresAt.getTime() - record.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  });

  it('keeps no plaintext secret in the stored response, and replays the secret itself', async () => {
    const headers = { 'idempotency-key': 'sealed-secret' };
    const first = await platform.call('/v2/api-keys/create', keyRequest, { headers });
    expect(first.body.secret).toMatch(/^asec_/);
    const record = await platform.db.idempotencyRecord.findFirstOrThrow({ where: { key: 'sealed-secret' } });
    expect(JSON.stringify(record.responseBody)).not.toContain(first.body.secret);
    expect(JSON.stringify(record.responseBody)).not.toContain(first.body.id);
    const retry = await platform.call('/v2/api-keys/create', keyRequest, { headers });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('rejects a malformed key', async () => {
    const res = await platform.call('/v2/api-keys/create', keyRequest, { headers: { 'idempotency-key': 'x'.repeat(300) } });
    expect(res.status).toBe(400);
    expect(res.body.context.constraints['Idempotency-Key'].type).toBe('FORMAT');
  });
});
