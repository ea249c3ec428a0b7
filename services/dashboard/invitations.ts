import { ApiError } from '../../domain/errors';
import { looksLikeEmail, normalizeEmail } from '../../domain/dashboard-email';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import { newId } from '../../domain/ids';
import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';
import { publicUrl } from '../files/config';
import type { ClientInfo } from './actor';
import { dashboardSettings } from './config';
import { passwordConstraintViolation } from './password-length';
import { hashPassword } from './passwords';
import { rememberClient } from './known-clients';
import { endSession, startSession } from './sessions';
import { dashboardUserSelect } from './users';

/** Where the dashboard's set-password page takes the token from. */
export function invitationUrl(token: string): string {
  return `${publicUrl()}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`;
}

export interface NewInvitation {
  accountId: string;
  email: string;
  role: DashboardRole;
  /** The inviting user; null for the operator command and the first start. */
  invitedBy: string | null;
}

/** A link that makes an admin lives shorter: it is the most valuable one to steal. */
function invitationTtlMs(role: DashboardRole): number {
  const settings = dashboardSettings();
  return role === 'MERCHANT_ADMIN' ? settings.adminInvitationTtlMs : settings.invitationTtlMs;
}

/**
 * An invitation for one e-mail and role, valid once until it expires. Refused (422 USER_EXISTS)
 * when the e-mail is already a user of this account: a second invitation would not be usable.
 * Whether the address is a user of another account is neither checked nor told: e-mails are
 * unique per account. The token is in the returned link only.
 */
export async function createInvitation(db: Database | Prisma.TransactionClient, input: NewInvitation, now: Date) {
  const email = normalizeEmail(input.email);
  if (!looksLikeEmail(email)) throw ApiError.validation({ email: { type: 'FORMAT', message: 'Not an e-mail address.' } });
  const account = await db.account.findUnique({ where: { id: input.accountId }, select: { id: true } });
  if (!account) throw ApiError.notFound('Account', input.accountId);
  if (await db.dashboardUser.findUnique({ where: { accountId_email: { accountId: input.accountId, email } }, select: { id: true } })) throw userExists(email);
  const token = newDashboardToken();
  const expiresAt = new Date(now.getTime() + invitationTtlMs(input.role));
  const invitation = await db.dashboardInvitation.create({
    data: {
      id: newId('dashboardInvitation', now.getTime()),
      accountId: input.accountId,
      email,
      role: input.role,
      tokenHash: hashDashboardToken(token),
      invitedBy: input.invitedBy,
      createdAt: now,
      expiresAt,
    },
    select: { id: true, email: true, role: true },
  });
  return { ...invitation, url: invitationUrl(token), expiresAt };
}

function userExists(email?: string): ApiError {
  return new ApiError('USER_EXISTS', 'A dashboard user with this e-mail already exists.', email ? { email } : undefined);
}

const invitationSelect = { id: true, accountId: true, email: true, role: true, expiresAt: true, acceptedAt: true, revokedAt: true } as const;

function invalidInvitation(reason: 'UNKNOWN' | 'USED' | 'REVOKED' | 'EXPIRED'): ApiError {
  const message = {
    UNKNOWN: 'This invitation link is not valid.',
    USED: 'This invitation link has already been used.',
    REVOKED: 'This invitation was revoked; ask an admin for a new one.',
    EXPIRED: 'This invitation link has expired; ask an admin for a new one.',
  }[reason];
  return new ApiError('INVITATION_INVALID', message, { reason });
}

function usable<T extends { expiresAt: Date; acceptedAt: Date | null; revokedAt: Date | null }>(invitation: T | null, now: Date): T {
  if (!invitation) throw invalidInvitation('UNKNOWN');
  if (invitation.acceptedAt) throw invalidInvitation('USED');
  if (invitation.revokedAt) throw invalidInvitation('REVOKED');
  if (invitation.expiresAt <= now) throw invalidInvitation('EXPIRED');
  return invitation;
}

/** Neither accepted, revoked nor expired: the link still works. */
export function pendingAt(now: Date) {
  return { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
}

/** What the set-password page shows: the invited e-mail, role and account. */
export async function describeInvitation(db: Database, token: string, now: Date) {
  const invitation = usable(await db.dashboardInvitation.findUnique({ where: { tokenHash: hashDashboardToken(token) }, select: invitationSelect }), now);
  const account = await db.account.findUniqueOrThrow({ where: { id: invitation.accountId }, select: { name: true } });
  return { email: invitation.email, role: invitation.role as DashboardRole, account_name: account.name };
}

export interface AcceptedInvitation {
  token: string;
  password: string;
  /** The token of the session the browser already holds, if any: ended, as sign-in does. */
  previousToken?: string;
}

/**
 * Sets the password, creates the user and signs them in, all in one transaction with the
 * invitation's row locked: of two requests with one link, exactly one succeeds. The link is
 * looked at before the password is hashed, so a bogus, used or expired one costs no argon2 run.
 */
export async function acceptInvitation(db: Database, input: AcceptedInvitation, now: Date, client: ClientInfo) {
  const violation = passwordConstraintViolation(input.password);
  if (violation) throw violation;
  const tokenHash = hashDashboardToken(input.token);
  usable(await db.dashboardInvitation.findUnique({ where: { tokenHash }, select: invitationSelect }), now);
  // Hashed before the transaction: argon2 takes tens of milliseconds and needs no lock.
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM dashboard_invitations WHERE token_hash = ${tokenHash} FOR UPDATE`;
    const invitation = usable(locked[0] ? await tx.dashboardInvitation.findUnique({ where: { id: locked[0].id }, select: invitationSelect }) : null, now);
    const existing = { accountId_email: { accountId: invitation.accountId, email: invitation.email } };
    if (await tx.dashboardUser.findUnique({ where: existing, select: { id: true } })) throw userExists(invitation.email);
    const user = await tx.dashboardUser.create({
      data: {
        id: newId('dashboardUser', now.getTime()),
        accountId: invitation.accountId,
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        createdAt: now,
        updatedAt: now,
      },
      select: dashboardUserSelect,
    });
    await tx.dashboardInvitation.update({ where: { id: invitation.id }, data: { acceptedAt: now } });
    if (input.previousToken) await endSession(tx, input.previousToken);
    const session = await startSession(tx, user.id, now, client);
    // Accepting is the user's first sign-in: this browser and address are known from now.
    const deviceToken = await rememberClient(tx, user.id, { ip: client.ip }, undefined, now);
    return { user, deviceToken, ...session };
  }).catch((error: unknown) => {
    // Two invitations of one e-mail accepted at the same moment: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw userExists();
    throw error;
  });
}
