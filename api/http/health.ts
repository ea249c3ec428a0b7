import type { FastifyInstance } from 'fastify';
import type { ContextDependencies } from '../context';
import { recentReadiness } from '../../services/health/readiness';

/**
 * Probes for a load balancer or an orchestrator (docs/deployment.md, "Health"): `live` says the
 * process answers (restart it if not), `ready` that it can serve (send it traffic only then).
 * Unauthenticated, like every probe; they reveal only which dependency is failing. A closing
 * server answers every new request, these too, with 503 (Fastify's `return503OnClosing`), so a
 * stopping process drops out of the balancer while it finishes what it has. `ready` answers from
 * checks at most READINESS_TTL_MS old, so probing it often costs nothing more.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: Pick<ContextDependencies, 'db' | 'temporal'>): void {
  const live = async () => ({ status: 'live' });
  const readiness = recentReadiness(deps);
  app.get('/health', live);
  app.get('/health/live', live);
  app.get('/health/ready', async (_request, reply) => {
    const { ready, checks } = await readiness();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
