import type { TRedisClient } from '@aso/queue';

/**
 * Limits on guesses of a secret (sign-in codes, admin codes) that count an attempt BEFORE the
 * secret is compared, in one Redis script (atomic across api replicas): of 50 parallel
 * guesses, at most the limit are compared, whatever their order of arrival. A right guess
 * gives its count back ({@link AttemptLimiter.succeeded}), so the limits count failures.
 */

/** One counter an attempt is counted in. */
export interface TAttemptCounter {
  /** Name shown in logs and refusals (e.g. `signin:email+address`). */
  name: string;
  /** Redis key of the counter (fixed window from its first attempt). */
  key: string;
  /** Attempts allowed in the window (>= 1). */
  max: number;
  /** Window length (ms). */
  windowMs: number;
  /**
   * Past `max`, instead of refusing every attempt until the window ends, allow one attempt
   * per `gateMs` through `gateKey` (a backoff). Absent: refuse until the window ends.
   */
  gateMs?: number;
  /**
   * The Redis key of the backoff's slot (default `<key>:gate`). A slot per caller (e.g. per
   * address) keeps the backoff from being a lock-out: others' attempts cannot take this
   * caller's slot, so whoever holds the right code waits at most `gateMs`.
   */
  gateKey?: string;
  /** On a right guess: `'return'` gives this attempt back, `'reset'` empties the counter. */
  onSuccess: 'return' | 'reset';
}

/** What {@link AttemptLimiter.attempt} decided. */
export type TAttemptDecision =
  | {
      allowed: true;
      /**
       * A counter with a backoff that this attempt took past its limit: from now on its
       * callers get one attempt per backoff (log it), else null.
       */
      backoffBegins: string | null;
    }
  | {
      allowed: false;
      /** The counter that refused. */
      counter: string;
      /** ms until an attempt may be allowed again. */
      retryAfterMs: number;
      /**
       * True on the first refusal of this counter's window, or of a backoff slot's period (a
       * lock-out begins: log it; later refusals of the same window or period are not).
       */
      lockoutBegins: boolean;
    };

// KEYS: counters c1..cn then their gate keys g1..gn.
// ARGV: per counter i, ARGV[3i-2] = max, ARGV[3i-1] = windowMs, ARGV[3i] = gateMs (0: none).
// A gate holds '1' while its slot is taken, '2' once a refusal by it was reported.
// Returns { allowed (0|1), retryAfterMs, counter index, lockoutBegins (0|1) }; for an allowed
// attempt the index is that of a counter whose backoff begins (0: none).
const ATTEMPT_SCRIPT = `
local n = #KEYS / 2
for i = 1, n do
  local gateMs = tonumber(ARGV[3*i])
  if gateMs > 0 then
    local c = tonumber(redis.call('GET', KEYS[i]) or '0')
    if c >= tonumber(ARGV[3*i-2]) then
      local t = redis.call('PTTL', KEYS[n+i])
      if t > 0 then
        local first = 0
        if redis.call('GET', KEYS[n+i]) == '1' then
          redis.call('SET', KEYS[n+i], '2', 'KEEPTTL')
          first = 1
        end
        return {0, t, i, first}
      end
    end
  end
end
local refused, wait, first, begins = 0, 0, 0, 0
local gates = {}
for i = 1, n do
  local c = redis.call('INCR', KEYS[i])
  if c == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[3*i-1]) end
  local max = tonumber(ARGV[3*i-2])
  if c > max then
    if tonumber(ARGV[3*i]) > 0 then
      table.insert(gates, i)
      if c == max + 1 then begins = i end
    else
      local t = redis.call('PTTL', KEYS[i])
      if refused == 0 or t > wait then
        refused, wait = i, t
        if c == max + 1 then first = 1 else first = 0 end
      end
    end
  end
end
if refused > 0 then return {0, wait, refused, first} end
for _, i in ipairs(gates) do
  if not redis.call('SET', KEYS[n+i], '1', 'PX', ARGV[3*i], 'NX') then
    return {0, redis.call('PTTL', KEYS[n+i]), i, 0}
  end
end
return {1, 0, begins, 0}
`;

// KEYS: counters to give one attempt back to, then counters to empty.
// ARGV[1]: how many of KEYS are of the first kind.
const SUCCESS_SCRIPT = `
local r = tonumber(ARGV[1])
for i = 1, #KEYS do
  if i <= r then
    if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
  else
    redis.call('DEL', KEYS[i])
  end
end
return 1
`;

/** Counts attempts of one kind of secret check; see the module comment. */
export class AttemptLimiter {
  constructor(private readonly redis: TRedisClient) {}

  /**
   * Counts one attempt in every counter and decides whether the secret may be compared.
   * Throws what ioredis throws when Redis cannot be reached (the caller fails closed).
   */
  async attempt(counters: TAttemptCounter[]): Promise<TAttemptDecision> {
    const keys = [
      ...counters.map((c) => c.key),
      ...counters.map((c) => c.gateKey ?? `${c.key}:gate`),
    ];
    const args = counters.flatMap((c) => [c.max, c.windowMs, c.gateMs ?? 0]);
    const [allowed, wait, index, first] = (await this.redis.eval(
      ATTEMPT_SCRIPT,
      keys.length,
      ...keys,
      ...args,
    )) as [number, number, number, number];
    if (allowed === 1) {
      return {
        allowed: true,
        backoffBegins: index > 0 ? (counters[index - 1]?.name ?? null) : null,
      };
    }
    return {
      allowed: false,
      counter: counters[index - 1]?.name ?? 'unknown',
      retryAfterMs: Math.max(1, wait),
      lockoutBegins: first === 1,
    };
  }

  /** Records a right guess after {@link attempt} allowed it (see `AttemptCounter.onSuccess`). */
  async succeeded(counters: TAttemptCounter[]): Promise<void> {
    const back = counters.filter((c) => c.onSuccess === 'return').map((c) => c.key);
    const reset = counters.filter((c) => c.onSuccess === 'reset').map((c) => c.key);
    await this.redis.eval(
      SUCCESS_SCRIPT,
      back.length + reset.length,
      ...back,
      ...reset,
      back.length,
    );
  }
}
