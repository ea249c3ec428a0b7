import type { Client } from '@temporalio/client';
import { apiKeyRotationWorkflowId, TASK_QUEUE, webhookKeyRotationWorkflowId } from '../../domain/workflow-ids';
import type { apiKeyRotationWorkflow, RotatedSecretKind, webhookKeyRotationWorkflow } from '../../workflows/secret-rotation';

export type { RotatedSecretKind };

export interface SecretOverlapEnd {
  ownerId: string;
  /** The secret the rotation issued: names the workflow, one per rotation. */
  issuedSecretRecordId: string;
  demotedSecretRecordId: string;
  expiresAt: string;
  rotationPeriodSeconds: number;
}

/** Starts the workflow that revokes the demoted secret when the rotation period ends. */
export async function startSecretOverlapEnd(temporal: Client, kind: RotatedSecretKind, overlap: SecretOverlapEnd): Promise<void> {
  const { ownerId, issuedSecretRecordId, ...rest } = overlap;
  if (kind === 'apiKey') {
    await temporal.workflow.start<typeof apiKeyRotationWorkflow>('apiKeyRotationWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: apiKeyRotationWorkflowId(ownerId, issuedSecretRecordId),
      args: [{ apiKeyId: ownerId, ...rest }],
    });
  } else {
    await temporal.workflow.start<typeof webhookKeyRotationWorkflow>('webhookKeyRotationWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: webhookKeyRotationWorkflowId(ownerId, issuedSecretRecordId),
      args: [{ endpointId: ownerId, ...rest }],
    });
  }
}
