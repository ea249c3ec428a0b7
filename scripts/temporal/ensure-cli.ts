import { ensureTemporalCli } from './cli';

/** Builds the Temporal CLI once (minutes on a cold Go cache) before anything waits on it. */
ensureTemporalCli().then(
  (path) => console.log(`[temporal] CLI at ${path}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
