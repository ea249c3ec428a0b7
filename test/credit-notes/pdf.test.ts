import { pdfTexts } from '../invoice-pdf/pdf-text';
import { usePlatform } from '../support/platform';
import { creditNoteMerchant } from './fixtures';

const platform = usePlatform();

it('serves the credit note PDF at its signed pdf_url, laid out as invoices are, and refuses a link to another note', async () => {
  const m = creditNoteMerchant(platform);
  const { invoice } = await m.taxedInvoice();
  await m.ok('customers/patch', { id: invoice.customer.id, first_name: 'Later' });
  const [seats] = invoice.line_items as Array<{ id: string }>;
  const note = await m.ok('credit-notes/create', {
    invoice_id: invoice.id,
    reason: 'ORDER_CHANGE',
    memo: 'One seat fewer',
    lines: [{ line_item_id: seats!.id, quantity: 1 }],
  });
  expect(note.pdf_url).toMatch(new RegExp(`^${platform.baseUrl}/files/credit-notes/${note.id}\\.pdf\\?expires=\\d+&signature=`));

  const response = await fetch(note.pdf_url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('content-disposition')).toBe(`inline; filename="${note.id}.pdf"`);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  const texts = pdfTexts(Buffer.from(await response.arrayBuffer()));
  const joined = texts.join('\n');
  for (const expected of [`Credit note ${note.number}`, note.id, invoice.id, 'ORDER_CHANGE', 'Seats', 'EXCLUSIVE 19%', '10.00', '1.90', '11.90', 'Total credited', 'One seat fewer']) {
    expect(joined).toContain(expected);
  }
  // The customer as the invoice froze them, not as they are now.
  expect(joined).not.toContain('Later');

  const other = await m.ok('credit-notes/create', { invoice_id: invoice.id, reason: 'OTHER', amount: 100 });
  const forged = note.pdf_url.replace(note.id, other.id);
  const refused = await fetch(forged);
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('PERMISSION_DENIED');
});
