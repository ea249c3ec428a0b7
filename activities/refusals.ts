import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../domain/errors';

/**
 * Runs a service operation for an activity. A service's refusal (ApiError) is final, so Temporal
 * must not retry it: it becomes a non-retryable ApplicationFailure whose type is the refusal's
 * code and whose details carry its context. Anything else stays a retryable failure.
 */
export async function refusalsAsFailures<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof ApiError) {
      throw ApplicationFailure.create({ message: error.message, type: error.code, nonRetryable: true, details: error.context ? [error.context] : [] });
    }
    throw error;
  }
}
