import type { DashboardActor } from '../../services/dashboard/actor';
import { auditActorOf, recordAudit } from '../../services/dashboard/audit-log';
import type { PortalActor } from '../../services/portal/actor';
import type { Context } from '../context';

function idIn(value: unknown): string | undefined {
  const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A /v2 change a dashboard user, or a customer in the portal, made, in the audit log: the
 * operation (`invoices/void`), the object (the request's `id`, else the created record's), address
 * and user agent. Written after the change committed; if writing it fails the change stands and
 * the failure is logged, since answering 500 for a change that happened would invite a second one.
 */
export async function auditOperation(ctx: Context, actor: DashboardActor | PortalActor, path: string, input: unknown, output: unknown): Promise<void> {
  const auditActor = auditActorOf(actor);
  try {
    await recordAudit(ctx.db, auditActor, ctx.client ?? {}, {
      action: path.replace(/^\/v2\//, ''),
      objectId: idIn(input) ?? idIn(output),
      at: ctx.now(),
    });
  } catch (error) {
    console.error(`audit log: could not record ${path} by ${auditActor.userId} (request ${ctx.requestId}): ${(error as Error).message}`);
  }
}
