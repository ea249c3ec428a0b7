import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const TREE = {
  rules: [{ name: 'euro', match: { currencies: ['EUR'], amount: { min: 0, max: 100_000 } }, providers: ['sandbox-beta', 'sandbox-alpha'] }],
  default_providers: ['sandbox-alpha', 'sandbox-beta'],
};

async function channelKey(channelIds: string[]): Promise<string> {
  const permissions = ['get', 'get-version', 'list', 'create', 'create-version', 'publish-version'].map((a) => `routing-configs:${a}`);
  return (await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'channel', channelIds, permissions })).secret;
}

describe('routing-configs', () => {
  let accountWideId: string;
  let channelConfigId: string;

  it('creates one account-wide configuration and one per channel', async () => {
    const accountWide = await platform.call('/v2/routing-configs/create', { name: 'Account routes' });
    expect(accountWide.status).toBe(200);
    expect(accountWide.body).toEqual({
      id: expect.stringMatching(/^rcfg_/),
      name: 'Account routes',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    accountWideId = accountWide.body.id;

    const channel = await platform.call('/v2/routing-configs/create', { name: 'Web shop routes', channel_id: platform.channelIds[0] });
    expect(channel.status).toBe(200);
    expect(channel.body.channel_id).toBe(platform.channelIds[0]);
    channelConfigId = channel.body.id;

    const again = await platform.call('/v2/routing-configs/create', { name: 'Second' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: 'ROUTING_CONFIG_ALREADY_EXISTS', message: expect.any(String), context: { routing_config_id: accountWideId } });
    const channelAgain = await platform.call('/v2/routing-configs/create', { name: 'Second', channel_id: platform.channelIds[0] });
    expect(channelAgain.body).toMatchObject({ code: 'ROUTING_CONFIG_ALREADY_EXISTS', context: { routing_config_id: channelConfigId } });

    const unknown = await platform.call('/v2/routing-configs/create', { name: 'Nowhere', channel_id: 'chn_unknown' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'CHANNEL_NOT_FOUND', context: { channel_id: 'chn_unknown' } });
  });

  it('creates only one configuration when two creates for a channel race', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((n) => platform.call('/v2/routing-configs/create', { name: `race ${n}`, channel_id: platform.channelIds[1] })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    expect(await platform.db.routingConfig.count({ where: { channelId: platform.channelIds[1] } })).toBe(1);
  });

  it('refuses an invalid route tree with a constraint per offending path', async () => {
    const res = await platform.call('/v2/routing-configs/create-version', {
      routing_config_id: accountWideId,
      route_tree: {
        rules: [
          {
            name: 'bad',
            match: {
              currencies: ['XYZ', 'usd'],
              amount: { min: 500, max: 500 },
              card_brands: ['VISA', 'VISAA'],
              customer_countries: ['DE', 'XXX'],
              colour: 'red',
            },
            providers: ['sandbox-alpha', 'sandbox-gamma'],
          },
          { name: '', match: {}, providers: [] },
          { name: 'twice', match: {}, providers: ['sandbox-alpha', 'sandbox-alpha'] },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    const types = Object.fromEntries(Object.entries(res.body.context.constraints as Record<string, { type: string }>).map(([k, v]) => [k, v.type]));
    expect(types).toEqual({
      'route_tree.rules[0].match.currencies[0]': 'ENUM',
      'route_tree.rules[0].match.currencies[1]': 'FORMAT',
      'route_tree.rules[0].match.amount.max': 'INVALID',
      'route_tree.rules[0].match.card_brands[1]': 'ENUM',
      'route_tree.rules[0].match.customer_countries[0]': 'FORMAT',
      'route_tree.rules[0].match.customer_countries[1]': 'ENUM',
      'route_tree.rules[0].match.colour': 'UNKNOWN_FIELD',
      'route_tree.rules[0].providers[1]': 'ENUM',
      'route_tree.rules[1].name': 'MIN',
      'route_tree.rules[1].providers': 'MIN',
      'route_tree.rules[2].providers': 'INVALID',
      'route_tree.default_providers': 'REQUIRED',
    });
  });

  it('refuses two rules with one name', async () => {
    const res = await platform.call('/v2/routing-configs/create-version', {
      routing_config_id: accountWideId,
      route_tree: { ...TREE, rules: [TREE.rules[0], TREE.rules[0]] },
    });
    expect(res.status).toBe(400);
    expect(res.body.context.constraints).toEqual({ 'route_tree.rules[1].name': { type: 'INVALID', message: expect.stringContaining('euro') } });
  });

  it('numbers drafts, publishes one, archives the previous one, and records the event', async () => {
    const v1 = await platform.call('/v2/routing-configs/create-version', { routing_config_id: accountWideId, route_tree: TREE, description: 'first' });
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual({
      id: expect.stringMatching(/^rcv_/),
      routing_config_id: accountWideId,
      version: 1,
      status: 'DRAFT',
      description: 'first',
      route_tree: TREE,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const v2 = await platform.call('/v2/routing-configs/create-version', {
      routing_config_id: accountWideId,
      route_tree: { rules: [], default_providers: ['sandbox-beta'] },
    });
    expect(v2.body).toMatchObject({ version: 2, status: 'DRAFT' });

    const published = await platform.call('/v2/routing-configs/publish-version', { id: v1.body.id }, { headers: { 'Idempotency-Key': 'publish-v1' } });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: v1.body.id, status: 'PUBLISHED', published_at: expect.any(String), route_tree: TREE });
    const replay = await platform.call('/v2/routing-configs/publish-version', { id: v1.body.id }, { headers: { 'Idempotency-Key': 'publish-v1' } });
    expect(replay.body).toEqual(published.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    expect((await platform.call('/v2/routing-configs/get', { id: accountWideId })).body.published_version_id).toBe(v1.body.id);
    const again = await platform.call('/v2/routing-configs/publish-version', { id: v1.body.id });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'PUBLISHED' } });

    expect((await platform.call('/v2/routing-configs/publish-version', { id: v2.body.id })).body.status).toBe('PUBLISHED');
    const archived = await platform.call('/v2/routing-configs/get-version', { id: v1.body.id });
    expect(archived.body).toMatchObject({ status: 'ARCHIVED', published_at: published.body.published_at, route_tree: TREE });
    expect((await platform.call('/v2/routing-configs/get', { id: accountWideId })).body.published_version_id).toBe(v2.body.id);
    const republish = await platform.call('/v2/routing-configs/publish-version', { id: v1.body.id });
    expect(republish.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'ARCHIVED' } });

    const events = await platform.db.outboxEvent.findMany({
      where: { accountId: platform.accountId, eventType: 'ROUTING_CONFIG_VERSION_PUBLISHED' },
      orderBy: { id: 'asc' },
    });
    expect(events).toHaveLength(2);
    expect(events[0]!.channelId).toBeNull();
    expect(events[0]!.data).toEqual({ routing_config_version: published.body });
    expect((events[1]!.data as { routing_config_version: { id: string } }).routing_config_version.id).toBe(v2.body.id);
  });

  it('answers 404 for unknown ids', async () => {
    expect((await platform.call('/v2/routing-configs/get', { id: 'rcfg_unknown' })).status).toBe(404);
    expect((await platform.call('/v2/routing-configs/get-version', { id: 'rcv_unknown' })).status).toBe(404);
    expect((await platform.call('/v2/routing-configs/publish-version', { id: 'rcv_unknown' })).status).toBe(404);
    const create = await platform.call('/v2/routing-configs/create-version', { routing_config_id: 'rcfg_unknown', route_tree: TREE });
    expect(create.status).toBe(404);
    expect((await platform.call('/v2/routing-configs/get', { id: 'rcv_wrongkind' })).body.context.constraints.id.type).toBe('FORMAT');
  });

  it('lists newest first with paging and filters', async () => {
    const first = await platform.call('/v2/routing-configs/list', { pagination: { page_size: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.pagination.next_page_token).not.toBe('');
    const second = await platform.call('/v2/routing-configs/list', { pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token } });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.pagination.next_page_token).toBe('');
    const ids = [...first.body.items, ...second.body.items].map((c: { id: string }) => c.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(ids).toEqual(expect.arrayContaining([accountWideId, channelConfigId]));

    const byChannel = await platform.call('/v2/routing-configs/list', { filters: { channel_id: { operator: 'EQ', value: platform.channelIds[0] } } });
    expect(byChannel.body.items.map((c: { id: string }) => c.id)).toEqual([channelConfigId]);
    const byName = await platform.call('/v2/routing-configs/list', { filters: { name: { operator: 'CONTAINS', value: 'WEB SHOP' } } });
    expect(byName.body.items.map((c: { id: string }) => c.id)).toEqual([channelConfigId]);

    const reused = await platform.call('/v2/routing-configs/list', {
      filters: { name: { operator: 'CONTAINS', value: 'routes' } },
      pagination: { page_size: 2, next_page_token: first.body.pagination.next_page_token },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.context.constraints['pagination.next_page_token'].type).toBe('FORMAT');
    const badOperator = await platform.call('/v2/routing-configs/list', { filters: { name: { operator: 'EQ', value: 'x' } } });
    expect(badOperator.body.context.constraints['filters.name.operator'].type).toBe('ENUM');
  });

  it('keeps a channel-bound key to the configurations of its channels', async () => {
    const secret = await channelKey([platform.channelIds[2]]);
    const created = await platform.call('/v2/routing-configs/create', { name: 'Channel three' }, { secret });
    expect(created.status).toBe(200);
    expect(created.body.channel_id).toBe(platform.channelIds[2]);

    const listed = await platform.call('/v2/routing-configs/list', {}, { secret });
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expect((await platform.call('/v2/routing-configs/get', { id: accountWideId }, { secret })).status).toBe(404);
    expect((await platform.call('/v2/routing-configs/get', { id: channelConfigId }, { secret })).status).toBe(404);
    const foreignVersion = await platform.call('/v2/routing-configs/create-version', { routing_config_id: channelConfigId, route_tree: TREE }, { secret });
    expect(foreignVersion.status).toBe(404);
    const otherChannel = await platform.call('/v2/routing-configs/create', { name: 'x', channel_id: platform.channelIds[0] }, { secret });
    expect(otherChannel.status).toBe(403);

    const draft = await platform.call('/v2/routing-configs/create-version', { routing_config_id: created.body.id, route_tree: TREE }, { secret });
    const published = await platform.call('/v2/routing-configs/publish-version', { id: draft.body.id }, { secret });
    expect(published.body.status).toBe('PUBLISHED');
    const event = await platform.db.outboxEvent.findFirstOrThrow({ where: { eventType: 'ROUTING_CONFIG_VERSION_PUBLISHED', channelId: platform.channelIds[2] } });
    expect(event.data).toEqual({ routing_config_version: published.body });
  });

  it('publishes a version once when two publishes race', async () => {
    const draft = await platform.call('/v2/routing-configs/create-version', { routing_config_id: channelConfigId, route_tree: TREE });
    const results = await Promise.all([1, 2, 3].map(() => platform.call('/v2/routing-configs/publish-version', { id: draft.body.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'ROUTING_CONFIG_VERSION_PUBLISHED', channelId: platform.channelIds[0] } });
    expect(events).toHaveLength(1);
  });
});
