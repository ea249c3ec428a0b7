import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionObject } from '../services/subscriptions/subscription-object';
import type { CancelRequest } from '../domain/subscriptions/cancellation';
import type { SubscriptionState } from '../domain/subscriptions/state';
import type { SubscriptionChanges } from '../domain/subscriptions/update';

/**
 * What the API and the invoice collection say to a subscription workflow. Kept apart from the
 * workflow so the API process imports the definitions without the workflow code.
 */
export const updateSubscriptionUpdate = defineUpdate<SubscriptionObject, [SubscriptionChanges]>('update');
export const cancelSubscriptionUpdate = defineUpdate<SubscriptionObject, [CancelRequest]>('cancel');
export const deleteCancellationUpdate = defineUpdate<SubscriptionObject, []>('deleteCancellation');

/** The workflow's state, for operators and tests. */
export const subscriptionStateQuery = defineQuery<SubscriptionState>('state');

/** Sent by the invoice collection of one of the subscription's invoices when its first charge failed and dunning began. */
export const invoiceDunningStartedSignal = defineSignal<[{ invoiceId: string }]>('invoiceDunningStarted');

/**
 * Sent by invoices/pay and invoices/void after they settle one of the subscription's invoices by
 * hand: an UNPAID subscription with nothing left owed becomes ACTIVE again.
 */
export const subscriptionInvoiceSettledSignal = defineSignal<[{ invoiceId: string }]>('invoiceSettled');
