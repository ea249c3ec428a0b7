import { ensureStripeMock } from './stripe-mock';

/** Builds stripe-mock once (a minute or more on a cold Go cache), before jest waits on it. */
ensureStripeMock().then(
  (path) => console.log(`[stripe-mock] at ${path}`),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
