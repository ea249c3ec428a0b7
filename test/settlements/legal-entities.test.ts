import { createAccount, createChannel } from '../../scripts/operator/accounts';
import { assignLegalEntity, createLegalEntity, listLegalEntities } from '../../scripts/operator/legal-entities';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database?.drop());

describe('legal entity operator commands', () => {
  it('creates legal entities, assigns and clears them per channel, and lists them', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Acme');
    const [web, shop] = [await createChannel(db, account.id, 'Web'), await createChannel(db, account.id, 'Shop')];
    const gmbh = await createLegalEntity(db, { accountId: account.id, name: '  Acme GmbH ', country: 'DEU' });
    expect(gmbh).toEqual({ id: expect.stringMatching(/^le_/), account_id: account.id, name: 'Acme GmbH', country: 'DEU' });
    const sas = await createLegalEntity(db, { accountId: account.id, name: 'Acme SAS', country: 'FRA' });

    expect(await assignLegalEntity(db, web.id, gmbh.id)).toEqual({ channel_id: web.id, legal_entity_id: gmbh.id });
    await assignLegalEntity(db, shop.id, sas.id);
    await assignLegalEntity(db, shop.id, null);
    expect(await listLegalEntities(db, account.id)).toEqual({
      legal_entities: [
        { id: gmbh.id, name: 'Acme GmbH', country: 'DEU', channel_ids: [web.id] },
        { id: sas.id, name: 'Acme SAS', country: 'FRA', channel_ids: [] },
      ],
      unassigned_channel_ids: [shop.id],
    });
  });

  it('refuses a country that is not ISO 3166 alpha-3, an empty name and an unknown account', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Refusals');
    await expect(createLegalEntity(db, { accountId: account.id, name: 'Acme', country: 'DE' })).rejects.toThrow(/alpha-3/);
    await expect(createLegalEntity(db, { accountId: account.id, name: ' ', country: 'DEU' })).rejects.toThrow(/--name/);
    await expect(createLegalEntity(db, { accountId: 'acct_missing', name: 'Acme', country: 'DEU' })).rejects.toThrow(/does not exist/);
    expect(await db.legalEntity.count({ where: { accountId: account.id } })).toBe(0);
  });

  it('never assigns another account’s legal entity to a channel', async () => {
    const { db } = database;
    const mine = await createAccount(db, 'Mine');
    const theirs = await createAccount(db, 'Theirs');
    const channel = await createChannel(db, mine.id, 'Web');
    const foreign = await createLegalEntity(db, { accountId: theirs.id, name: 'Theirs Ltd', country: 'GBR' });
    await expect(assignLegalEntity(db, channel.id, foreign.id)).rejects.toThrow(/another account/);
    await expect(assignLegalEntity(db, channel.id, 'le_missing')).rejects.toThrow(/does not exist/);
    await expect(assignLegalEntity(db, 'chn_missing', foreign.id)).rejects.toThrow(/does not exist/);
    expect((await db.channel.findUniqueOrThrow({ where: { id: channel.id } })).legalEntityId).toBeNull();
  });
});
