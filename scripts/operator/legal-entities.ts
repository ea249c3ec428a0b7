import { isCountryCode } from '../../domain/countries';
import { newId } from '../../domain/ids';
import type { Database } from '../../prisma/client';

/**
 * Legal entities (`le_…`, docs/settlements.md "Legal entities"): the companies of an account
 * that receive its money. Each channel names the one that receives its payments; settlements
 * and monthly statements are made per legal entity.
 */

export interface LegalEntityInput {
  accountId: string;
  name: string;
  /** ISO 3166 alpha-3, like every country in the API (section 1 item 4). */
  country: string;
}

export async function createLegalEntity(db: Database, input: LegalEntityInput) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new Error('--name must be 1 to 200 characters.');
  if (!isCountryCode(input.country)) throw new Error(`--country must be an ISO 3166 alpha-3 code such as DEU, got ${input.country}.`);
  if (!(await db.account.findUnique({ where: { id: input.accountId }, select: { id: true } }))) {
    throw new Error(`Account ${input.accountId} does not exist.`);
  }
  const now = new Date();
  const row = await db.legalEntity.create({
    data: { id: newId('legalEntity'), accountId: input.accountId, name, country: input.country, createdAt: now, updatedAt: now },
  });
  return { id: row.id, account_id: row.accountId, name: row.name, country: row.country };
}

/**
 * Names the legal entity that receives a channel's payments from now on; `null` clears it.
 * Settlements already made keep the entity they were made for.
 */
export async function assignLegalEntity(db: Database, channelId: string, legalEntityId: string | null) {
  const channel = await db.channel.findUnique({ where: { id: channelId }, select: { id: true, accountId: true } });
  if (!channel) throw new Error(`Channel ${channelId} does not exist.`);
  if (legalEntityId !== null) {
    const entity = await db.legalEntity.findUnique({ where: { id: legalEntityId }, select: { accountId: true } });
    if (!entity) throw new Error(`Legal entity ${legalEntityId} does not exist.`);
    if (entity.accountId !== channel.accountId) throw new Error(`Legal entity ${legalEntityId} belongs to another account than channel ${channelId}.`);
  }
  await db.channel.update({ where: { id: channelId }, data: { legalEntityId } });
  return { channel_id: channelId, legal_entity_id: legalEntityId };
}

/** The account's legal entities with the channels assigned to each, and the channels with none. */
export async function listLegalEntities(db: Database, accountId: string) {
  const [entities, channels] = await Promise.all([
    db.legalEntity.findMany({ where: { accountId }, orderBy: { id: 'asc' } }),
    db.channel.findMany({ where: { accountId }, select: { id: true, legalEntityId: true }, orderBy: { id: 'asc' } }),
  ]);
  return {
    legal_entities: entities.map((entity) => ({
      id: entity.id,
      name: entity.name,
      country: entity.country,
      channel_ids: channels.filter((channel) => channel.legalEntityId === entity.id).map((channel) => channel.id),
    })),
    unassigned_channel_ids: channels.filter((channel) => channel.legalEntityId === null).map((channel) => channel.id),
  };
}
