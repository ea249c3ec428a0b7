export const deliverySelect = {
  id: true,
  endpointId: true,
  eventId: true,
  eventType: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  updatedAt: true,
  attempts: {
    orderBy: { attempt: 'asc' },
    select: { id: true, attempt: true, requestedAt: true, responseStatus: true, error: true, durationMs: true },
  },
} as const;
