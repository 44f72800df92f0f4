import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum (19 MiB, 2 passes, 1 lane).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * How many argon2id computations run at once: as many as the machine has cores, and always fewer
 * than libuv's threads. Each runs on a libuv thread, off the event loop, for ~20 ms of a whole
 * core. Without a bound, a crowd signing in at once (bench/load.ts: 200 people) queued 200 of
 * them in libuv's one first-in-first-out queue: every file read waited behind them, and 4
 * threads busy on a 2-core machine left the event loop serving everybody else less than half
 * a core. Now the rest wait here, in order, and at least one libuv thread stays free.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(
  1,
  Math.min(availableParallelism(), (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1),
);

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than PASSWORD_HASH_CONCURRENCY computations are running; first come, first served. */
async function queued<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASH_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (running stays the same), or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => queued(() => hash(password, OPTIONS));

/**
 * argon2id verifications this process has run: how a test sees that an unknown name costs the
 * same work as a wrong password (a count, not a stopwatch: timings drift on a shared machine).
 */
export const passwordChecks = { verified: 0 };

export async function verifyPassword(passwordHash: string, password: string) {
  passwordChecks.verified++;
  try {
    return await queued(() => verify(passwordHash, password));
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
