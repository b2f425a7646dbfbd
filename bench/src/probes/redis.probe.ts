import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import type { Redis } from 'ioredis';

/** `used_memory` of `INFO memory` (bytes). Redis is shared, so this counts other users too. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const m = /^used_memory:(\d+)/m.exec(info);
  if (!m) throw new Error('INFO memory has no used_memory field');
  return Number(m[1]);
}

/**
 * Memory held by the keys under `prefix` (SCAN `prefix:*` + `MEMORY USAGE` of each key, bytes)
 * and their count: what this run's queues and progress streams cost, apart from other users.
 */
export async function prefixMemory(
  redis: Redis,
  prefix: string,
): Promise<{ bytes: number; keys: number }> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (batch.length > 0) {
      const pipeline = redis.pipeline();
      for (const k of batch) pipeline.memory('USAGE', k, 'SAMPLES', '0');
      const replies = (await pipeline.exec()) ?? [];
      for (const [err, value] of replies) {
        if (!err && typeof value === 'number') bytes += value;
      }
      keys += batch.length;
    }
  } while (cursor !== '0');
  return { bytes, keys };
}

/** Hex `ip:port` of /proc/net/tcp -> port number. */
function hexPort(address: string): number {
  return parseInt(address.split(':')[1] ?? '', 16);
}

/**
 * Local TCP ports of `pid`'s sockets connected to `remotePort` (Linux: socket inodes from
 * /proc/<pid>/fd matched with /proc/<pid>/net/tcp{,6}).
 */
export function localPortsTo(pid: number, remotePort: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address rem_address st ... inode (10th column)
      if (cols.length < 10) continue;
      const [, local, remote, state, , , , , , inode] = cols;
      // 01 = ESTABLISHED
      if (state === '01' && inodes.has(inode!) && hexPort(remote!) === remotePort)
        ports.push(hexPort(local!));
    }
  }
  return ports;
}

/** The Redis connections of one process. */
export interface TProcessRedisConnections {
  /** Established TCP connections from the process to Redis. */
  count: number;
  /** Their `CLIENT SETNAME` names as `CLIENT LIST` shows them (sorted; '' when unnamed). */
  names: string[];
}

/**
 * The Redis connections held by process `pid` (the gateway's count must not
 * grow with SSE clients): its sockets to Redis' port, named through `CLIENT LIST` (matched by
 * the client's `addr` port, so other processes using the same names are not counted).
 */
export async function processRedisConnections(
  redis: Redis,
  pid: number,
  redisPort = 6379,
): Promise<TProcessRedisConnections> {
  const ports = new Set(localPortsTo(pid, redisPort));
  const list = (await redis.client('LIST')) as string;
  const names: string[] = [];
  for (const line of list.split('\n')) {
    const addr = /\baddr=\S*:(\d+)\b/.exec(line);
    if (!addr || !ports.has(Number(addr[1]))) continue;
    names.push(/\bname=(\S*)/.exec(line)?.[1] ?? '');
  }
  return { count: ports.size, names: names.sort() };
}
