import { Agent, request } from 'node:http';

/**
 * `POST /v2/<path>` with the key `secret`, as a merchant calls the API: the JSON answer of a 200,
 * anything else thrown. Sent with `node:http` over kept-alive connections, not `fetch`: the load
 * generators share the machine's two cores with the API, and `fetch` (undici) cost them about
 * 1–1.5 ms of CPU more per request, which bench:latency counted as the API's latency and
 * bench:invoices took from the API's share of the cores (docs/benchmarks.md, "The load
 * generators' own cost").
 */
export function apiClient(baseUrl: string, secret: string) {
  const agent = new Agent({ keepAlive: true });
  return (path: string, body: unknown): Promise<any> => {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const sent = request(
        `${baseUrl}/v2/${path}`,
        {
          agent,
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            try {
              const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as any;
              if (response.statusCode !== 200) reject(new Error(`${path}: ${response.statusCode} ${JSON.stringify(json)}`));
              else resolve(json);
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      sent.on('error', reject);
      sent.end(payload);
    });
  };
}

/** `GET <path>` over its own kept-alive connection, the body discarded: the bare HTTP round trip bench:latency prints beside the API's. */
export function bareGet(baseUrl: string) {
  const agent = new Agent({ keepAlive: true });
  return (path: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const sent = request(`${baseUrl}${path}`, { agent }, (response) => {
        response.resume();
        response.on('error', reject);
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${response.statusCode}`))));
      });
      sent.on('error', reject);
      sent.end();
    });
}
