import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../domain/errors';
import { ChargeUnderWay } from '../services/payments/charge-under-way';

/** A service's refusal is final: Temporal must not retry it. Its type is the refusal's code, its details the context. */
export function failureOf(refusal: ApiError): ApplicationFailure {
  return ApplicationFailure.create({ message: refusal.message, type: refusal.code, nonRetryable: true, details: refusal.context ? [refusal.context] : [] });
}

/**
 * Runs a service operation for an activity, mapping what services throw on purpose to Temporal
 * failures in this one place: a refusal (ApiError) becomes non-retryable; a charge under way
 * (ChargeUnderWay) a retryable PAYMENT_IN_PROGRESS, tried again until that charge has finished.
 * Anything else stays a retryable failure.
 */
export async function refusalsAsFailures<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    // A provider that could not say yet is no refusal: asked again on the activity's retry.
    if (error instanceof ApiError && error.code === 'PROVIDER_UNAVAILABLE') throw ApplicationFailure.retryable(error.message, error.code);
    if (error instanceof ApiError) throw failureOf(error);
    if (error instanceof ChargeUnderWay) throw ApplicationFailure.retryable(error.message, 'PAYMENT_IN_PROGRESS');
    throw error;
  }
}
