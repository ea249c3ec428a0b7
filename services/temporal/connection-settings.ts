import { loadClientConnectConfig, type ClientConnectConfig } from '@temporalio/envconfig';

/** Where the embedded dev server listens (`npm start`, the tests) when nothing else is configured. */
export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

export interface TemporalSettings {
  /** For `Connection.connect` / `Connection.lazy` (clients) and `NativeConnection.connect` (workers). */
  connectionOptions: ClientConnectConfig['connectionOptions'] & { address: string };
  namespace: string;
}

/**
 * How this process reaches Temporal (docs/configuration.md, "Temporal"): Temporal's own loader
 * (`@temporalio/envconfig`), so the platform reads exactly what the `temporal` CLI and every SDK
 * read: a profile of `temporal.toml` (`TEMPORAL_CONFIG_FILE`, `TEMPORAL_PROFILE`) overridden by
 * `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY` and the `TEMPORAL_TLS_*` variables
 * (CA, client certificate and key, server name). An API key turns TLS on by itself, as Temporal
 * Cloud expects.
 */
export function temporalSettings(env: NodeJS.ProcessEnv = process.env): TemporalSettings {
  const overrideEnvVars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const loaded = loadClientConnectConfig({ overrideEnvVars });
  return {
    connectionOptions: { ...loaded.connectionOptions, address: loaded.connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS },
    namespace: loaded.namespace ?? DEFAULT_TEMPORAL_NAMESPACE,
  };
}

/**
 * Whether Temporal was named explicitly (an address, a config file or a profile): `npm start`
 * then connects to it instead of starting its embedded dev server. A `temporal.toml` found only
 * at its default path does not count, so a developer's CLI profile never redirects `npm start`.
 */
export function temporalConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.TEMPORAL_ADDRESS || env.TEMPORAL_CONFIG_FILE || env.TEMPORAL_PROFILE);
}
