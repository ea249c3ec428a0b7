import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { S3Storage, s3StorageFromEnv } from '../../services/files/s3-storage';
import { startS3Server, type S3Server } from '../../scripts/s3/versitygw';

let dir: string;
let s3: S3Server;
let client: S3Client;
const BUCKET = 'billing-files';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-s3-'));
  s3 = await startS3Server(join(dir, 'data'));
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 600_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

const text = async (stream: Readable | undefined) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};

describe('S3 file storage against a real S3-compatible server (versitygw)', () => {
  it('writes, reads back, overwrites and removes; a missing key reads as undefined', async () => {
    const storage = new S3Storage(client, BUCKET, 'tenant-a/');
    expect(await storage.write('reports/rprt_1/report.csv', Readable.from(['id,total\r\n', 'inv_1,100\r\n']))).toEqual({ bytes: 21 });
    expect((await text(await storage.read('reports/rprt_1/report.csv'))).toString()).toBe('id,total\r\ninv_1,100\r\n');
    await storage.write('reports/rprt_1/report.csv', Readable.from([Buffer.from('v2')]));
    expect((await text(await storage.read('reports/rprt_1/report.csv'))).toString()).toBe('v2');
    expect(await storage.read('reports/rprt_2/report.csv')).toBeUndefined();
    // The prefix keeps deployments sharing a bucket apart.
    expect(await new S3Storage(client, BUCKET, 'tenant-b/').read('reports/rprt_1/report.csv')).toBeUndefined();
    await storage.remove('reports/rprt_1/report.csv');
    expect(await storage.read('reports/rprt_1/report.csv')).toBeUndefined();
    await expect(storage.remove('reports/never/report.csv')).resolves.toBeUndefined();
  });

  it('streams a body larger than several parts as one multipart upload, byte for byte', async () => {
    const storage = new S3Storage(client, BUCKET);
    const part = randomBytes(1024 * 1024);
    // 20 MiB in 1 MiB chunks from a generator: nothing holds the whole body.
    async function* body() {
      for (let i = 0; i < 20; i++) yield Buffer.concat([Buffer.from([i]), part.subarray(1)]);
    }
    const expected = createHash('sha256');
    for await (const chunk of body()) expected.update(chunk);
    expect(await storage.write('big/file.bin', body())).toEqual({ bytes: 20 * 1024 * 1024 });
    const read = await text(await storage.read('big/file.bin'));
    expect(read.length).toBe(20 * 1024 * 1024);
    expect(createHash('sha256').update(read).digest('hex')).toBe(expected.digest('hex'));
  });

  it('a failed upload leaves no object and no parts behind', async () => {
    const storage = new S3Storage(client, BUCKET);
    async function* failing() {
      yield randomBytes(9 * 1024 * 1024);
      throw new Error('generator broke');
    }
    await expect(storage.write('broken/file.bin', failing())).rejects.toThrow('generator broke');
    expect(await storage.read('broken/file.bin')).toBeUndefined();
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: BUCKET }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it('refuses keys that climb out of the prefix', async () => {
    const storage = new S3Storage(client, BUCKET, 'tenant-a/');
    await expect(storage.write('../tenant-b/x', Readable.from(['x']))).rejects.toThrow(/escapes/);
    await expect(storage.read('reports//x')).rejects.toThrow(/escapes/);
  });

  it('is configured from the environment, S3_BUCKET required', () => {
    expect(() => s3StorageFromEnv({ FILE_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(s3StorageFromEnv({ FILE_STORAGE: 's3', S3_BUCKET: BUCKET, S3_ENDPOINT: s3.endpoint, S3_FORCE_PATH_STYLE: 'true' })).toBeInstanceOf(S3Storage);
  });
});
