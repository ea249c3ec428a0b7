import { randomBytes } from 'node:crypto';
import { secretsKey } from '../../services/secrets/secrets-key';
import { openSecret, sealSecret } from '../../domain/secret-box';

const PURPOSE = 'webhook-secret:wsk_fixture';

describe('secret box', () => {
  it('seals and opens under a SECRETS_KEY longer than 32 bytes, as the API and worker accept at start', () => {
    for (const bytes of [33, 48, 64, 100]) {
      const key = secretsKey({ SECRETS_KEY: randomBytes(bytes).toString('hex') });
      const sealed = sealSecret(key, PURPOSE, 'wsec_long-key');
      expect(openSecret(key, PURPOSE, sealed)).toBe('wsec_long-key');
    }
  });

  it('uses every byte of a long key: keys that share their first 32 bytes do not open each other’s seals', () => {
    const key = randomBytes(64);
    const other = Buffer.concat([key.subarray(0, 32), randomBytes(32)]);
    const sealed = sealSecret(key, PURPOSE, 'wsec_long-key');
    expect(() => openSecret(other, PURPOSE, sealed)).toThrow();
    expect(() => openSecret(key.subarray(0, 32), PURPOSE, sealed)).toThrow();
  });

  it('still opens what was sealed under a 32-byte key before longer keys were accepted', () => {
    // Sealed by the code of commit a90529d (AES-256-GCM with the 32-byte key used as is).
    const key = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
    const sealedBefore = Buffer.from(
      '01351542396728d38d077ce87fd18716136e294dacb525178318ffec42a8c3dc0521bea76e44e92187b3a1366489a61733f24b8e',
      'hex',
    );
    expect(openSecret(key, PURPOSE, sealedBefore)).toBe('wsec_sealed-before-hkdf');
    expect(openSecret(key, PURPOSE, sealSecret(key, PURPOSE, 'wsec_sealed-after'))).toBe('wsec_sealed-after');
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => sealSecret(randomBytes(16), PURPOSE, 'x')).toThrow();
  });
});
