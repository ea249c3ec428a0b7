import { apiKeySelect, findApiKey } from '../../services/api-keys/repository';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

/**
 * findApiKey reads over the pool with hand-written SQL (arrays as JSON) outside a transaction and
 * through Prisma inside one: both must give exactly the row Prisma's `apiKeySelect` gives.
 */
describe('the hand-written API key read', () => {
  const prismaRow = (id: string) => platform.db.apiKey.findFirst({ where: { id, accountId: platform.accountId }, select: apiKeySelect });

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await platform.call('/v2/api-keys/create', body);
    expect(res.status).toBe(200);
    return res.body.id as string;
  }

  it('equals Prisma’s row for a bare key, a described channel-bound rotated key and a revoked key, on the pool and in a transaction', async () => {
    const bare = await create({ name: 'bare', permissions: ['invoices:get'] });
    const full = await create({
      name: 'full',
      description: 'Bound to two channels, “quoted”, ünïcode',
      channel_ids: [platform.channelIds[1], platform.channelIds[0]],
      permissions: ['api-keys:get', 'invoices:get', 'customers:create'],
    });
    expect((await platform.call('/v2/api-keys/rotate', { id: full, rotation_period: 3600 })).status).toBe(200);
    const revoked = await create({ name: 'revoked', permissions: ['customers:get'] });
    expect((await platform.call('/v2/api-keys/revoke', { id: revoked })).status).toBe(200);

    for (const id of [bare, full, revoked]) {
      const expected = await prismaRow(id);
      expect(expected).not.toBeNull();
      expect(await findApiKey(platform.db, platform.accountId, id)).toEqual(expected);
      expect(await platform.db.$transaction((tx) => findApiKey(tx, platform.accountId, id))).toEqual(expected);
    }
    const rotated = (await findApiKey(platform.db, platform.accountId, full))!;
    expect(rotated.rotateAt).toBeInstanceOf(Date);
    expect(rotated.channelIds).toEqual([platform.channelIds[0], platform.channelIds[1]].sort());
    expect((await findApiKey(platform.db, platform.accountId, revoked))!.revokedAt).toBeInstanceOf(Date);
  });

  it('finds nothing for another account’s key or an unknown id', async () => {
    const id = await create({ name: 'mine', permissions: ['invoices:get'] });
    expect(await findApiKey(platform.db, 'acct_other', id)).toBeNull();
    expect(await findApiKey(platform.db, platform.accountId, 'akey_01nonexistent0000000000000')).toBeNull();
  });
});
