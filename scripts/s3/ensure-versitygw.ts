import { ensureVersitygw } from './versitygw';

/** Builds the S3 gateway the storage tests run against once (minutes on a cold Go cache), before jest waits on it. */
ensureVersitygw().then(
  (path) => console.log(`[versitygw] at ${path}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
