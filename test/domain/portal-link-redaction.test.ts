import { REDACTED, redactSecrets } from '../../domain/log-redaction';

/** docs/portal.md: the tokens of portal and hosted invoice links are credentials in a path; no log line keeps them. */
describe('redactSecrets and portal links', () => {
  it('takes the token out of /portal/open/… and /portal/invoices/…, keeping the rest of the line', () => {
    const open = 'Kq3wW0d2bR7nYl9pA1sX4cV6zT8mH5jF0gE2iU7oL3k';
    const hosted = 'inv_01jdv3s4e7g1j5m8q2t6w0y3ef.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl';
    const line = JSON.stringify({ req: { method: 'GET', url: `/portal/open/${open}` }, msg: `served /portal/invoices/${hosted} in 3 ms`, next: '/portal/invoices' });
    const redacted = redactSecrets(line);
    expect(redacted).not.toContain(open);
    expect(redacted).not.toContain('c2lnbmF0dXJl');
    expect(redacted).toContain(`/portal/open/${REDACTED}`);
    expect(redacted).toContain(`/portal/invoices/${REDACTED} in 3 ms`);
    expect(redacted).toContain('"next":"/portal/invoices"');
  });
});
