import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, Readable, Transform } from 'node:stream';
import type { FileStorage } from './storage';

/** Parts of a multipart upload: S3's minimum is 5 MiB; two in flight keep memory near 16 MiB per upload. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * FileStorage on an S3-compatible bucket (docs/deployment.md, "Files"), so every API and worker
 * process sees the same files. A write streams the body as a multipart upload: the object
 * appears only when the upload completes, so readers see the old file or the whole new one,
 * and a report of any size never sits whole in memory. Keys go under `prefix`.
 */
export class S3Storage implements FileStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix = '',
  ) {}

  private keyOf(key: string): string {
    if (key.split('/').some((part) => part === '..' || part === '')) throw new Error(`Storage key escapes the storage root: ${key}`);
    return `${this.prefix}${key}`;
  }

  async write(key: string, body: Readable | AsyncIterable<string | Uint8Array>): Promise<{ bytes: number }> {
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        bytes += buffer.length;
        done(null, buffer);
      },
    });
    // pipeline, not pipe: a body that fails destroys `counted` with its error, so the upload
    // fails and aborts instead of waiting for the rest of the body for ever.
    pipeline(body instanceof Readable ? body : Readable.from(body), counted, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(key), Body: counted },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // A failed upload aborts its parts rather than leaving them billed in the bucket.
      leavePartsOnError: false,
    });
    await upload.done();
    return { bytes };
  }

  async read(key: string): Promise<Readable | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return object.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }
}

/**
 * The S3 settings of docs/configuration.md: S3_BUCKET (required), S3_ENDPOINT (any
 * S3-compatible server; absent: AWS), S3_REGION, S3_FORCE_PATH_STYLE, S3_PREFIX. Credentials come
 * from the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an
 * instance role), never from our own variables.
 */
export function s3StorageFromEnv(env: NodeJS.ProcessEnv): S3Storage {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error('FILE_STORAGE=s3 needs S3_BUCKET (docs/configuration.md).');
  const config: S3ClientConfig = {
    region: env.S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
  };
  return new S3Storage(new S3Client(config), bucket, env.S3_PREFIX ?? '');
}
