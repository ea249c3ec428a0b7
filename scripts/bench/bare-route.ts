import Fastify from 'fastify';
import { Pool } from 'pg';
import { serveWhenAsked, startCeilingServer, type ApiUnderTest } from './processes';

/**
 * The ceiling of an HTTP route on this machine: Fastify and one `pg` pool of the API's size
 * answering `POST /bare` `{ "id": … }` with one primary-key select of an API key, in a process
 * of its own as the API runs. No auth, no validation, no framework beyond Fastify.
 */
async function serve(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE) });
  const app = Fastify({ logger: false });
  app.get('/health', async () => ({ status: 'ok' }));
  app.post<{ Body: { id: string } }>('/bare', async (request, reply) => {
    const { rows } = await pool.query(
      'SELECT id, name, description, rotate_at, permissions, channel_ids, created_at, updated_at FROM api_keys WHERE id = $1',
      [request.body.id],
    );
    if (rows.length === 0) return reply.code(404).send({ code: 'NOT_FOUND' });
    return rows[0];
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

/** Starts the bare route against `databaseUrl` with a pool of `poolSize`; its URL is `http://127.0.0.1:<port>/bare`. */
export function startBareRoute(databaseUrl: string, poolSize: number): Promise<ApiUnderTest> {
  return startCeilingServer(__filename, databaseUrl, poolSize);
}

serveWhenAsked(serve);
