/**
 * What the merchant keeps for itself on its objects: its own notes and references. A customer in
 * the portal, or anyone holding a hosted invoice link, sees the /v2 objects without them.
 */
const MERCHANT_FIELDS: ReadonlySet<string> = new Set(['metadata', 'merchant_customer_id', 'merchant_reference']);

/** `body` with every merchant field taken out, at any depth (an invoice's customer, a list's items). */
export function customerFacing(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(customerFacing);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).flatMap(([key, value]) => (MERCHANT_FIELDS.has(key) ? [] : [[key, customerFacing(value)]])));
}
