import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/**
 * argon2id verifications this process has run: how a test sees that an unknown name costs the
 * same work as a wrong password (a count, not a stopwatch: timings drift on a shared machine).
 */
export const passwordChecks = { verified: 0 };

export async function verifyPassword(passwordHash: string, password: string) {
  passwordChecks.verified++;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing, verified when the user name is unknown so both paths take the same time. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => {
  dummy ??= hashPassword('no such user: timing equaliser');
  return dummy;
};
