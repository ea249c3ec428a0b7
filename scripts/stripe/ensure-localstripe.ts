import { ensureLocalstripe } from './localstripe';

/** Installs localstripe from PyPI once, before jest waits on it. */
try {
  console.log(`[localstripe] Python at ${ensureLocalstripe()}`);
} catch (error) {
  console.error(error);
  process.exit(1);
}
