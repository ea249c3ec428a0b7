import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporalConfigured, temporalSettings } from '../../services/temporal/connection-settings';

const dir = mkdtempSync(join(tmpdir(), 'temporal-settings-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
// HOME points at an empty directory: no developer's own temporal.toml leaks into these cases.
const base = { HOME: dir };

describe('Temporal connection settings (docs/configuration.md, "Temporal")', () => {
  it('defaults to the embedded dev server and the default namespace, without TLS', () => {
    expect(temporalSettings(base)).toEqual({ connectionOptions: { address: '127.0.0.1:7233' }, namespace: 'default' });
  });

  it('takes address and namespace from the environment; an API key turns TLS on', () => {
    const settings = temporalSettings({ ...base, TEMPORAL_ADDRESS: 'billing.a1b2c.tmprl.cloud:7233', TEMPORAL_NAMESPACE: 'billing.a1b2c', TEMPORAL_API_KEY: 'key-1' });
    expect(settings).toEqual({ connectionOptions: { address: 'billing.a1b2c.tmprl.cloud:7233', apiKey: 'key-1', tls: true }, namespace: 'billing.a1b2c' });
  });

  it('reads an mTLS profile of a temporal.toml, the environment overriding the file', () => {
    const ca = file('ca.pem', 'CA');
    const cert = file('client.pem', 'CERT');
    const key = file('client.key', 'KEY');
    const config = file(
      'temporal.toml',
      `[profile.production]\naddress = "temporal.internal:7233"\nnamespace = "billing"\n[profile.production.tls]\nserver_ca_cert_path = "${ca}"\nclient_cert_path = "${cert}"\nclient_key_path = "${key}"\nserver_name = "temporal.internal"\n`,
    );
    const settings = temporalSettings({ ...base, TEMPORAL_CONFIG_FILE: config, TEMPORAL_PROFILE: 'production', TEMPORAL_NAMESPACE: 'billing-eu' });
    expect(settings.namespace).toBe('billing-eu');
    expect(settings.connectionOptions.address).toBe('temporal.internal:7233');
    const tls = settings.connectionOptions.tls as { serverNameOverride: string; serverRootCACertificate: Uint8Array; clientCertPair: { crt: Uint8Array; key: Uint8Array } };
    expect(tls.serverNameOverride).toBe('temporal.internal');
    expect(text(tls.serverRootCACertificate)).toBe('CA');
    expect(text(tls.clientCertPair.crt)).toBe('CERT');
    expect(text(tls.clientCertPair.key)).toBe('KEY');
  });

  it('refuses a profile the file does not have, instead of connecting somewhere else', () => {
    const config = file('one-profile.toml', '[profile.default]\naddress = "a:7233"\n');
    expect(() => temporalSettings({ ...base, TEMPORAL_CONFIG_FILE: config, TEMPORAL_PROFILE: 'staging' })).toThrow(/staging/);
  });

  it('counts Temporal as configured only when named explicitly', () => {
    expect(temporalConfigured(base)).toBe(false);
    expect(temporalConfigured({ ...base, TEMPORAL_ADDRESS: 'a:7233' })).toBe(true);
    expect(temporalConfigured({ ...base, TEMPORAL_PROFILE: 'production' })).toBe(true);
    expect(temporalConfigured({ ...base, TEMPORAL_CONFIG_FILE: '/etc/temporal.toml' })).toBe(true);
  });
});
