import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3Server, type S3Server } from '../../scripts/s3/versitygw';
import { usePlatform } from '../support/platform';
import { reports } from './fixtures';

// Declared before usePlatform(): its beforeAll runs first, so the worker's activities and the
// API's file routes are built on S3 storage.
let dir: string;
let s3: S3Server;
let client: S3Client;
const saved = { ...process.env };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-s3-platform-'));
  s3 = await startS3Server(join(dir, 'data'));
  client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  await client.send(new CreateBucketCommand({ Bucket: 'platform-files' }));
  Object.assign(process.env, {
    FILE_STORAGE: 's3',
    S3_BUCKET: 'platform-files',
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'billing/',
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
}, 600_000);

const platform = usePlatform();

afterAll(async () => {
  for (const name of ['FILE_STORAGE', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  client?.destroy();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('reports on S3 storage (FILE_STORAGE=s3, docs/deployment.md)', () => {
  it('the export lands in the bucket and the signed download link serves it from there', async () => {
    const r = reports(platform);
    const { report, text, response } = await r.csvOf({ report_type: 'INVOICES', date_from: '2026-01-01T00:00:00.000000Z', date_to: '2026-02-01T00:00:00.000000Z' });
    expect(response.status).toBe(200);
    expect(text.split('\r\n')[0]).toMatch(/^id,status,currency,total_amount,/);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'platform-files', Prefix: 'billing/' }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toContain(`billing/reports/${report.id}/report.csv`);
  });
});
