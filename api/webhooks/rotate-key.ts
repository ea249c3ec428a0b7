import { z } from 'zod';
import { TASK_QUEUE, webhookKeyRotationWorkflowId } from '../../domain/workflow-ids';
import type { webhookKeyRotationWorkflow } from '../../workflows/webhook-key-rotation';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { lockVisibleEndpoint, rotateSecret } from './repository';
import { endpointId, MAX_ROTATION_PERIOD_SECONDS, serializeEndpoint, webhookEndpointObject } from './schemas';

export const rotateWebhookKeyRequest = z.strictObject({
  id: endpointId,
  rotation_period: z
    .number()
    .int()
    .min(0)
    .max(MAX_ROTATION_PERIOD_SECONDS)
    .meta({ description: 'Seconds during which the previous secret keeps signing deliveries. 0 switches to the new secret at once.' }),
});

export const rotateWebhookKeyResponse = webhookEndpointObject.extend({
  rotate_secret: z.string().meta({ description: 'The new `wsec_…` secret. Shown only in this response.' }),
});

export const rotateWebhookKey = authorizedProcedure
  .meta(
    operation('webhooks/rotate-key', {
      summary: 'Rotate the signing secret of a webhook endpoint',
      description:
        'Issues a new secret. During `rotation_period` seconds deliveries are still signed with the previous secret, so a receiver that already accepts both (or still only the previous one) keeps verifying; then a durable workflow retires the previous secret and every delivery is signed with the new one. Rotating again during an overlap retires the oldest secret at once.',
    }),
  )
  .input(rotateWebhookKeyRequest)
  .output(rotateWebhookKeyResponse)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'webhooks/rotate-key', input, (ctx) =>
      ctx.transaction(async (tx) => {
        await lockVisibleEndpoint(tx, ctx.principal, input.id);
        const rotated = await rotateSecret(tx, { endpointId: input.id, rotationPeriodSeconds: input.rotation_period, now: ctx.now() });
        if (rotated.overlap) {
          // Started before the commit, as api-keys/rotate does: a crash after the commit cannot
          // lose the timer; if the commit fails, the workflow finds no secret with this expiry.
          await ctx.temporal.workflow.start<typeof webhookKeyRotationWorkflow>('webhookKeyRotationWorkflow', {
            taskQueue: TASK_QUEUE,
            workflowId: webhookKeyRotationWorkflowId(input.id, rotated.issuedRecordId),
            args: [
              {
                endpointId: input.id,
                demotedSecretRecordId: rotated.overlap.demotedSecretRecordId,
                expiresAt: rotated.overlap.expiresAt.toISOString(),
                rotationPeriodSeconds: input.rotation_period,
              },
            ],
          });
        }
        return { ...serializeEndpoint(rotated.row), rotate_secret: rotated.secret };
      }),
    ),
  );
