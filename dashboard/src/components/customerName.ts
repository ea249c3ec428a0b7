import type { Customer } from '../api/types';

export function customerName(customer: Pick<Customer, 'first_name' | 'last_name'> & { business_details?: { name?: string } }): string {
  const person = [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  return customer.business_details?.name || person || '—';
}
