import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { apiKeyRotationWorkflowId, TASK_QUEUE, webhookKeyRotationWorkflowId } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { apiKeyRotationWorkflow, RotatedSecretKind, webhookKeyRotationWorkflow } from '../../workflows/secret-rotation';

export type { RotatedSecretKind };

export interface SecretOverlapEnd {
  ownerId: string;
  accountId: string;
  /** A webhook endpoint's channel; null for one of every channel, and for API keys. */
  channelId?: string | null;
  /** The secret the rotation issued: names the workflow, one per rotation. */
  issuedSecretRecordId: string;
  demotedSecretRecordId: string;
  expiresAt: string;
  rotationPeriodSeconds: number;
}

/** Starts the workflow that revokes the demoted secret when the rotation period ends. */
export async function startSecretOverlapEnd(temporal: Client, kind: RotatedSecretKind, overlap: SecretOverlapEnd): Promise<void> {
  const { ownerId, issuedSecretRecordId, accountId, channelId, ...rest } = overlap;
  const metadata = {
    typedSearchAttributes: searchAttributesOf({ resourceId: ownerId, accountId, channelId }),
    staticSummary: `Revoke the previous secret of ${ownerId} at ${rest.expiresAt}`,
  };
  if (kind === 'apiKey') {
    await temporal.workflow.start<typeof apiKeyRotationWorkflow>('apiKeyRotationWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: apiKeyRotationWorkflowId(ownerId, issuedSecretRecordId),
      args: [{ apiKeyId: ownerId, ...rest }],
      ...metadata,
    });
  } else {
    await temporal.workflow.start<typeof webhookKeyRotationWorkflow>('webhookKeyRotationWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: webhookKeyRotationWorkflowId(ownerId, issuedSecretRecordId),
      args: [{ endpointId: ownerId, ...rest }],
      ...metadata,
    });
  }
}

/**
 * Cancels the overlap workflow of the API key rotation that issued `issuedSecretRecordId`, once
 * the secrets it would revoke were revoked already (api-keys/revoke). None running (no rotation
 * issued that secret, or its overlap ended) leaves nothing to do.
 */
export async function cancelApiKeyOverlapEnd(temporal: Client, apiKeyId: string, issuedSecretRecordId: string): Promise<void> {
  try {
    await temporal.workflow.getHandle(apiKeyRotationWorkflowId(apiKeyId, issuedSecretRecordId)).cancel();
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
