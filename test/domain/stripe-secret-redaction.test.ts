import { randomBytes } from 'node:crypto';
import { REDACTED, redactSecrets } from '../../domain/log-redaction';

/** Issue 41: Stripe credentials an account hands the platform never reach a log line, whatever carries them. */
describe('redactSecrets and Stripe credentials', () => {
  it('takes out secret and restricted keys of either mode and webhook signing secrets, in messages and fields', () => {
    const secrets = ['sk_test_', 'sk_live_', 'rk_test_', 'rk_live_'].map((prefix) => `${prefix}${randomBytes(16).toString('hex')}`);
    const signing = `whsec_${randomBytes(24).toString('base64')}`;
    const line = JSON.stringify({ msg: `Stripe refused ${secrets[0]} and ${secrets[1]}`, key: secrets[2], nested: { value: `${secrets[3]},${signing}` } });
    const redacted = redactSecrets(line);
    for (const secret of [...secrets, signing]) expect(redacted).not.toContain(secret.slice(8));
    expect(redacted.split(REDACTED)).toHaveLength(6);
    expect(redacted).toContain('Stripe refused');
  });

  it('keeps what only looks alike: publishable keys, ids, the masked key in Stripe’s own messages', () => {
    const line = 'pk_test_51Habc pi_3QaTest0001 cus_Q1 task_test_1 Invalid API Key provided: sk_test_****1234';
    expect(redactSecrets(line)).toBe(line);
  });
});
