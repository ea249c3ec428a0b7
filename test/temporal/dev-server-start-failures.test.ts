import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/net/free-port';

/**
 * Start-up failures of the dev server, with a stand-in `temporal` first on PATH: it fails the
 * way the real server does (an error line, then a panic stack longer than any tail) and, for
 * the port race, hands over to the real CLI on the next attempt.
 */

type CliModule = typeof import('../../scripts/temporal/cli');

let dir: string;
let realCli: string;
const originalPath = process.env.PATH;

async function loadCliWithStandIn(script: string): Promise<CliModule> {
  const standIn = path.join(dir, 'bin', 'temporal');
  await writeFile(standIn, script);
  await chmod(standIn, 0o755);
  process.env.PATH = `${path.dirname(standIn)}${path.delimiter}${originalPath}`;
  // The CLI location is cached per module instance.
  jest.resetModules();
  return require('../../scripts/temporal/cli') as CliModule;
}

function failingServer(errorLine: string): string {
  const stack = Array.from({ length: 60 }, (_, i) => `\tgo.uber.org/fx.frame${i}()`).join('\n');
  return `echo '${errorLine}'\necho 'panic: runtime error: invalid memory address or nil pointer dereference'\ncat <<'STACK'\n${stack}\nSTACK\nexit 2\n`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dev-server-failures-'));
  await mkdir(path.join(dir, 'bin'));
  realCli = await (require('../../scripts/temporal/cli') as CliModule).ensureTemporalCli();
});

afterEach(() => {
  process.env.PATH = originalPath;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('reports the logged error of a server that dies at start-up, and does not retry other failures', async () => {
  const runs = path.join(dir, 'runs-other');
  const cli = await loadCliWithStandIn(
    `#!/bin/sh\necho run >> '${runs}'\n` + failingServer('time=x level=ERROR msg="Failed creating namespaces" error="disk I/O error"'),
  );
  const dataDir = path.join(dir, 'other');

  const started = cli.startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });

  await expect(started).rejects.toThrow(/exited before becoming ready \(exit code 2\)[\s\S]*Errors logged:\ntime=x level=ERROR msg="Failed creating namespaces"/);
  expect((await readFile(runs, 'utf8')).trim().split('\n')).toHaveLength(1);
});

it('starts again when the server lost a race for one of its ports', async () => {
  const runs = path.join(dir, 'runs-race');
  const cli = await loadCliWithStandIn(
    `#!/bin/sh\nif [ ! -f '${runs}' ]; then\necho run > '${runs}'\n` +
      failingServer('time=x level=ERROR msg="Failed to start gRPC listener" error="listen tcp 127.0.0.1:40001: bind: address already in use"') +
      `fi\nexec '${realCli}' "$@"\n`,
  );
  const dataDir = path.join(dir, 'race');

  const server = await cli.startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });
  try {
    expect((await fetch(server.uiUrl)).status).toBe(200);
    const log = await readFile(path.join(dataDir, 'temporal.log'), 'utf8');
    expect(log.match(/starting temporal dev server/g)).toHaveLength(2);
  } finally {
    await server.stop();
  }
}, 120_000);
