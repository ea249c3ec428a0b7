import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's minimum for argon2id).
 * The parameters travel in the PHC string, so raising them later keeps old hashes verifiable.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: Algorithm.Argon2id });
}

/**
 * Checked against a real hash even for an unknown e-mail, so the answer takes as long either
 * way and does not tell which addresses have an account.
 */
let decoy: Promise<string> | undefined;

export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoy ??= hashPassword('decoy password that matches nothing');
    await verify(await decoy, password);
    return false;
  }
  return verify(passwordHash, password);
}
