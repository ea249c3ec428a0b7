import { randomBytes, randomInt } from 'node:crypto';

/**
 * The flood of bench:dashboard-flood, in a process of its own (the timed client must not share its
 * event loop): `FLOOD_AMOUNT` requests over `FLOOD_CONNECTIONS` connections to `FLOOD_URL`,
 * alternately a sign-in with a wrong password for a new e-mail each time (every one would need an
 * argon2 verification) and an accept-invitation with a made-up token. `FLOOD_ADDRESSES=one` sends
 * them all from one address; `spread`, each from a random address of its own (X-Forwarded-For, the
 * API trusting it), as a botnet would, so no per-address limit applies. Prints a line `flooding`
 * as it starts sending (tsx's compile before it takes a second or more, which the timed client
 * must not count as flood), then autocannon's result as JSON.
 */
const autocannon: (options: object) => Promise<{ statusCodeStats: Record<string, { count: number }>; duration: number; errors: number }> =
  require('autocannon');

const spread = process.env.FLOOD_ADDRESSES === 'spread';
const address = () => (spread ? `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}` : '203.0.113.9');

async function main(): Promise<void> {
  let sent = 0;
  process.stdout.write('flooding\n');
  const result = await autocannon({
    url: process.env.FLOOD_URL,
    connections: Number(process.env.FLOOD_CONNECTIONS ?? 64),
    amount: Number(process.env.FLOOD_AMOUNT ?? 3000),
    requests: [
      {
        method: 'POST',
        setupRequest: (request: Record<string, unknown>) => {
          const n = sent++;
          const [path, body] =
            n % 2 === 0
              ? ['/dashboard/api/session/sign-in', { email: `flood-${n}@example.test`, password: 'not the password' }]
              : ['/dashboard/api/session/accept-invitation', { token: randomBytes(32).toString('base64url'), password: 'a long enough password' }];
          return { ...request, path, headers: { 'content-type': 'application/json', 'x-forwarded-for': address() }, body: JSON.stringify(body) };
        },
      },
    ],
  });
  process.stdout.write(JSON.stringify({ statusCodeStats: result.statusCodeStats, duration: result.duration, errors: result.errors }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
