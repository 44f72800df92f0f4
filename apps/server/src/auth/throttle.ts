import { createHash } from 'node:crypto';
import {
  LOGIN_FAILURE_MEMORY_MS,
  LOGIN_MAX_FAILURES,
  LOGIN_SLOWDOWN_BASE_MS,
  LOGIN_SLOWDOWN_MAX_MS,
} from '@crdp/core';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { loginThrottle } from '../db/schema/index.js';

/**
 * Password guesses are counted per (user name, client address), never per user alone: an
 * attacker's address is slowed down for that user while the user signs in from anywhere else.
 *
 * The user name is normalised as the sign-in lookup reads it (spaces around it trimmed, lower
 * case: user names are ASCII letters, digits and `. _ @ -`, unique without regard to case), so
 * `Admin`, `admin ` and `ADMIN` are one counter. Only a SHA-256 of that form is stored.
 *
 * Every guess is counted *before* the password is checked, in one locked row, so a burst of
 * parallel requests cannot get more than the threshold past the check; a right password then
 * clears the row. Past the threshold the address waits 30 s, then 60 s, 120 s ... up to 15
 * minutes after each further wrong guess; failures are forgotten 15 minutes after the last
 * guess (or the end of the last wait).
 */

export const throttleKey = (userName: string) =>
  createHash('sha256').update(userName.trim().toLowerCase()).digest('hex');

/** The wait after the n-th failure in a row (n ≥ threshold). */
export const slowdownMs = (failures: number) =>
  Math.min(LOGIN_SLOWDOWN_BASE_MS * 2 ** Math.max(0, failures - LOGIN_MAX_FAILURES), LOGIN_SLOWDOWN_MAX_MS);

export type Reservation =
  /** The guess may be checked; `startsWait` is set when a wrong answer now makes the address wait. */
  | { allowed: true; failures: number; startsWait: { seconds: number } | null }
  /** The address must wait this many seconds (rounded up) before guessing again. */
  | { allowed: false; seconds: number; failures: number };

/**
 * Counts one guess for (user, address) as failed until `clearGuesses` says otherwise, or refuses
 * it while the address is made to wait. Atomic on PGlite and PostgreSQL: the row is created if
 * missing and locked (an upsert) for the read and the write.
 */
export async function reserveGuess(
  db: Db,
  userName: string,
  ip: string,
  now = new Date(),
): Promise<Reservation> {
  const userKey = throttleKey(userName);
  return db.transaction(async (tx) => {
    // Created or found, and locked, in one statement: an update on conflict locks the row and
    // returns it. (An insert that did nothing followed by a SELECT … FOR UPDATE found no row when a
    // right password of a parallel sign-in deleted it in between: a 500 under parallel sign-ins.)
    const [row] = await tx
      .insert(loginThrottle)
      .values({ userKey, ip, failures: 0, lastAt: now })
      .onConflictDoUpdate({ target: [loginThrottle.userKey, loginThrottle.ip], set: { userKey } })
      .returning();
    const blockedUntil = row!.blockedUntil;
    if (blockedUntil && blockedUntil > now) {
      return {
        allowed: false as const,
        seconds: Math.max(1, Math.ceil((blockedUntil.getTime() - now.getTime()) / 1000)),
        failures: row!.failures,
      };
    }
    const quietSince = Math.max(row!.lastAt.getTime(), blockedUntil?.getTime() ?? 0);
    const before = now.getTime() - quietSince > LOGIN_FAILURE_MEMORY_MS ? 0 : row!.failures;
    const failures = before + 1;
    const wait = failures >= LOGIN_MAX_FAILURES ? slowdownMs(failures) : null;
    await tx
      .update(loginThrottle)
      .set({ failures, lastAt: now, blockedUntil: wait === null ? null : new Date(now.getTime() + wait) })
      .where(and(eq(loginThrottle.userKey, userKey), eq(loginThrottle.ip, ip)));
    return {
      allowed: true as const,
      failures,
      startsWait: wait === null ? null : { seconds: Math.ceil(wait / 1000) },
    };
  });
}

/** A right password: the address starts afresh for this user (other addresses keep their counts). */
export async function clearGuesses(db: Db, userName: string, ip: string) {
  await db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.userKey, throttleKey(userName)), eq(loginThrottle.ip, ip)));
}

/** Drops rows nobody needs any more (older than a day); called now and then by sign-in. */
export async function pruneGuesses(db: Db, now = new Date()) {
  await db.delete(loginThrottle).where(lt(loginThrottle.lastAt, new Date(now.getTime() - 24 * 3_600_000)));
}
