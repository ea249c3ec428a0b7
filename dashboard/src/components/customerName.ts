/** A business's name, else the person's, else a dash: customers and invoice customers alike. */
export function customerName(customer: { first_name?: string; last_name?: string; business_details?: { name?: string } }): string {
  const person = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  return customer.business_details?.name || person || '—';
}
