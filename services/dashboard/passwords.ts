import { Algorithm, hash, verify } from '@node-rs/argon2';
import { processPasswordHashSlots, type HashPriority } from './password-hash-slots';

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's minimum for argon2id).
 * The parameters travel in the PHC string, so raising them later keeps old hashes verifiable.
 * Every call takes one of the process's slots (password-hash-slots.ts) or is refused 429.
 */
export function hashPassword(password: string): Promise<string> {
  return processPasswordHashSlots()(() => hash(password, { algorithm: Algorithm.Argon2id }));
}

/**
 * Checked against a real hash even for an unknown e-mail, so the answer takes as long either
 * way and does not tell which addresses have an account. Made once per process, outside the
 * slots, so a refusal cannot leave it unmade.
 */
let decoy: Promise<string> | undefined;

export async function passwordMatches(passwordHash: string | undefined, password: string, priority: HashPriority = 'normal'): Promise<boolean> {
  const against = passwordHash ?? (await (decoy ??= hash('decoy password that matches nothing', { algorithm: Algorithm.Argon2id })));
  const matches = await processPasswordHashSlots()(() => verify(against, password), priority);
  return passwordHash !== undefined && matches;
}
