import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { ZRedisClusterNodes, type TRedisClusterNodes } from '@aso/contracts';
import { createRedis, type TRedisClient } from '@aso/queue';
import { until } from './wait.helpers';

const run = promisify(execFile);

/**
 * How long a node may be unreachable before the others mark it failed and its replica takes
 * over (ms, `cluster-node-timeout`; Redis' default is 15 s). Short, so a fault case's failover
 * takes seconds.
 */
const NODE_TIMEOUT_MS = 2_000;

/** Is `port` free on the loopback interface? */
async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `n` free client ports for cluster nodes, each with its cluster bus port (+10,000) free too,
 * taken from `TEST_REDIS_CLUSTER_PORTS` (`low-high`, e.g. `7100-7199`) when set, else from
 * 20000-29999. Throws when the range has too few.
 */
async function freeNodePorts(n: number): Promise<number[]> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_REDIS_CLUSTER_PORTS ?? '');
  const [low, high] = range ? [Number(range[1]), Number(range[2])] : [20_000, 29_999];
  const ports: number[] = [];
  // Start at a random place so two runs at once rarely race for the same ports.
  const span = high - low + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span && ports.length < n; i++) {
    const port = low + ((start + i) % span);
    if (port + 10_000 > 65_535) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) ports.push(port);
  }
  if (ports.length < n) throw new Error(`fewer than ${n} free port pairs in ${low}-${high}`);
  return ports;
}

/** A redis-server of a new cluster exited before it answered (its port was taken meanwhile). */
class NodeExitedError extends Error {
  constructor(port: number) {
    super(`redis-server on port ${port} exited at start (port taken?)`);
  }
}

/** One node of the cluster as `CLUSTER NODES` lists it. */
export interface TClusterNode {
  id: string;
  /** Where the node is reached: the IP it announces (else its hostname, else where it was asked). */
  host: string;
  port: number;
  role: 'master' | 'replica';
  /** Failed (`fail` flag) or not connected. */
  down: boolean;
  /** The slot ranges a master serves (`[from, to]`). */
  slots: Array<[number, number]>;
}

/** `REDIS_CLUSTER_NODES` of `nodes` (`host:port,...`, IPv6 hosts in brackets). */
export function clusterNodeList(nodes: TRedisClusterNodes): string {
  return nodes.map((n) => `${n.host.includes(':') ? `[${n.host}]` : n.host}:${n.port}`).join(',');
}

/** `host:port` of a node, the key of {@link OwnRedisCluster}'s table of known nodes. */
const addressOf = (n: { host: string; port: number }) => `${n.host}:${n.port}`;

/**
 * A Redis Cluster for tests: either one given by `REDIS_CLUSTER_NODES` (the cluster a check
 * brings: any hosts and ports, any number of masters and replicas, any subset of its nodes as
 * seeds), or 3 masters and 3 replicas of the installed `redis-server` on free loopback ports,
 * made with `redis-cli --cluster create --cluster-replicas 1` (nothing persisted,
 * `maxmemory-policy noeviction`, node timeout {@link NODE_TIMEOUT_MS}) and removed by
 * {@link stop}. Every node is learnt from `CLUSTER NODES` (the seeds are only where asking
 * starts), so the helpers keep working when a seed is the node a fault case killed. A fault
 * case finds the master of a slot and kills its process.
 */
export class OwnRedisCluster {
  /** Every node seen so far, seeds first (`host:port` -> node). */
  private readonly known = new Map<string, { host: string; port: number }>();

  private constructor(
    /** The seed nodes: `REDIS_CLUSTER_NODES` as given, or every node of a cluster of its own. */
    readonly nodes: TRedisClusterNodes,
    private readonly procs: ChildProcess[],
    private readonly dir: string | null,
  ) {
    for (const n of nodes) this.known.set(addressOf(n), { host: n.host, port: n.port });
  }

  /** `REDIS_CLUSTER_NODES` of the seed nodes (`host:port,...`). */
  get nodeList(): string {
    return clusterNodeList(this.nodes);
  }

  /** True when this object started the cluster (and {@link stop} removes it). */
  get owned(): boolean {
    return this.dir !== null;
  }

  /**
   * The cluster named by `REDIS_CLUSTER_NODES`, else a new one of 3 masters and 3 replicas.
   * Resolves once every node reports `cluster_state:ok` (within 30 s).
   */
  static async start(): Promise<OwnRedisCluster> {
    const given = ZRedisClusterNodes.parse(process.env.REDIS_CLUSTER_NODES);
    if (given) {
      const cluster = new OwnRedisCluster(given, [], null);
      await cluster.topology();
      await cluster.awaitOk(30_000);
      return cluster;
    }
    // A port found free may be taken by another process before redis-server binds it: that
    // node exits at once, and the cluster is made again on other ports (three tries).
    for (let attempt = 1; ; attempt++) {
      try {
        return await OwnRedisCluster.create();
      } catch (err) {
        if (!(err instanceof NodeExitedError) || attempt === 3) throw err;
      }
    }
  }

  /** 3 masters and 3 replicas on free ports (see {@link start}). */
  private static async create(): Promise<OwnRedisCluster> {
    const ports = await freeNodePorts(6);
    const dir = mkdtempSync(join(tmpdir(), 'aso-redis-cluster-'));
    const procs = ports.map((port) => {
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      return spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--dir', nodeDir],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'],
          ...['--cluster-node-timeout', String(NODE_TIMEOUT_MS)],
          ...['--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
        ],
        { stdio: 'ignore' },
      );
    });
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    const cluster = new OwnRedisCluster(nodes, procs, dir);
    try {
      const exited = (i: number) => procs[i]!.exitCode !== null || procs[i]!.signalCode !== null;
      await Promise.all(
        nodes.map(async (n, i) => {
          // A node that exited stops the wait at once.
          await until(
            `redis-server ${n.port} answering`,
            async () => exited(i) || (await cluster.ping(n)),
            10_000,
            50,
          );
          if (exited(i)) throw new NodeExitedError(n.port);
        }),
      );
      await run(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...ports.map((p) => `127.0.0.1:${p}`),
          '--cluster-replicas',
          '1',
          '--cluster-yes',
        ],
        { timeout: 30_000 },
      );
      await cluster.awaitOk(30_000);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** A connection to one node (the caller disconnects it). */
  private node(n: { host: string; port: number }): Redis {
    const c = new Redis({
      host: n.host,
      port: n.port,
      lazyConnect: true,
      connectTimeout: 3_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    c.on('error', () => undefined);
    return c;
  }

  private async ping(n: { host: string; port: number }): Promise<boolean> {
    const c = this.node(n);
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } finally {
      c.disconnect();
    }
  }

  /**
   * What one node says: `CLUSTER INFO`'s state and `CLUSTER NODES`' table; `synced` is false
   * for a replica whose link to its master is not up (it never synced, so it could not take
   * over: a replica without data does not fail over).
   */
  private async view(n: {
    host: string;
    port: number;
  }): Promise<{ ok: boolean; synced: boolean; nodes: TClusterNode[] }> {
    const c = this.node(n);
    try {
      await c.connect();
      const info = await c.cluster('INFO');
      const table = (await c.cluster('NODES')) as string;
      const replication = await c.info('replication');
      // A node that announces no address of its own (`:port`) is reached where it was asked.
      const nodes = parseClusterNodes(table).map((x) => ({ ...x, host: x.host || n.host }));
      for (const x of nodes)
        if (x.port > 0 && !this.known.has(addressOf(x)))
          this.known.set(addressOf(x), { host: x.host, port: x.port });
      return {
        ok: /cluster_state:ok/.test(info),
        synced: !/role:slave/.test(replication) || /master_link_status:up/.test(replication),
        nodes,
      };
    } finally {
      c.disconnect();
    }
  }

  /**
   * The cluster's nodes as a live node sees them: the seeds are asked first, then every node
   * learnt from an earlier answer, so the killed seed of a fault case is passed over.
   */
  async topology(): Promise<TClusterNode[]> {
    for (const n of [...this.known.values()]) {
      try {
        return (await this.view(n)).nodes;
      } catch {
        // that node is down: ask the next
      }
    }
    throw new Error(`no node of the cluster answers (asked ${[...this.known.keys()].join(', ')})`);
  }

  /** The nodes of the cluster that answer now (every node known, asked one by one). */
  private async liveNodes(): Promise<Array<{ host: string; port: number }>> {
    await this.topology();
    const all = [...this.known.values()];
    const up = await Promise.all(all.map((n) => this.ping(n).catch(() => false)));
    return all.filter((_, i) => up[i]);
  }

  /**
   * Resolves once every reachable node says `cluster_state:ok`, sees every slot served by a
   * master that is up, and every reachable replica is in sync with its master (within
   * `timeoutMs`).
   */
  async awaitOk(timeoutMs: number): Promise<void> {
    await until(
      'the Redis Cluster reporting cluster_state:ok',
      async () => {
        let answered = 0;
        await this.topology().catch(() => undefined);
        for (const n of [...this.known.values()]) {
          const v = await this.view(n).catch(() => null);
          if (!v) continue;
          answered++;
          if (!v.ok || !v.synced) return false;
          const served = v.nodes
            .filter((x) => x.role === 'master' && !x.down)
            .flatMap((x) => x.slots)
            .reduce((sum, [a, b]) => sum + b - a + 1, 0);
          if (served !== 16_384) return false;
        }
        return answered > 0;
      },
      timeoutMs,
      100,
    );
  }

  /** The slot of `key` (`CLUSTER KEYSLOT`: its hash tag when it has one). */
  async slotOf(key: string): Promise<number> {
    return (await this.slotsOf([key]))[0]!;
  }

  /** The slot of each of `keys`, in order (`CLUSTER KEYSLOT` asked of one live node). */
  async slotsOf(keys: readonly string[]): Promise<number[]> {
    for (const n of await this.liveNodes()) {
      const c = this.node(n);
      try {
        await c.connect();
        const out: number[] = [];
        for (const key of keys) out.push(await c.cluster('KEYSLOT', key));
        return out;
      } catch {
        // gone meanwhile: ask the next
      } finally {
        c.disconnect();
      }
    }
    throw new Error('no node of the cluster answers CLUSTER KEYSLOT');
  }

  /** The master (up) that serves `slot` now. */
  async masterOf(slot: number): Promise<TClusterNode> {
    const master = (await this.topology()).find(
      (n) => n.role === 'master' && !n.down && n.slots.some(([a, b]) => slot >= a && slot <= b),
    );
    if (!master) throw new Error(`no master serves slot ${slot}`);
    return master;
  }

  /**
   * kill -9 of `node` (its pid read from `INFO server`, so a cluster this object did not start
   * can be hit too when it runs on this machine).
   */
  async kill(node: TClusterNode): Promise<void> {
    const c = this.node(node);
    let pid: number;
    try {
      await c.connect();
      const info = await c.info('server');
      pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    } finally {
      c.disconnect();
    }
    if (!pid) throw new Error(`no process_id from the node ${addressOf(node)}`);
    process.kill(pid, 'SIGKILL');
    await until(
      `node ${addressOf(node)} gone`,
      async () => !(await this.ping(node).catch(() => false)),
      5_000,
    );
  }

  /**
   * A Cluster client seeded with every node known (ioredis passes over the ones that are down;
   * worker role: waits through a failover; the caller disconnects it).
   */
  client(): TRedisClient {
    const c = createRedis(
      { cluster: [...this.known.values()] },
      { role: 'worker', name: 'test:cluster' },
    );
    c.on('error', () => undefined);
    return c;
  }

  /** The keys under `prefix` (every key when `prefix` is empty) held by `node` (SCAN). */
  async keysOn(node: TClusterNode, prefix: string): Promise<string[]> {
    const c = this.node(node);
    const out: string[] = [];
    try {
      await c.connect();
      let cursor = '0';
      do {
        const pattern = prefix ? `${prefix}:*` : '*';
        const [next, keys] = await c.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        out.push(...keys);
      } while (cursor !== '0');
    } finally {
      c.disconnect();
    }
    return out;
  }

  /** Deletes every key under `prefix` on every master (SCAN + UNLINK, one node at a time). */
  async deletePrefix(prefix: string): Promise<void> {
    for (const n of await this.topology()) {
      if (n.role !== 'master' || n.down) continue;
      const c = this.node(n);
      try {
        await c.connect();
        let cursor = '0';
        do {
          const [next, keys] = await c.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
          cursor = next;
          // One key at a time: keys of other tags may be in other slots.
          for (const k of keys) await c.unlink(k);
        } while (cursor !== '0');
      } finally {
        c.disconnect();
      }
    }
  }

  /** Ends the nodes this object started and removes their folders. */
  async stop(): Promise<void> {
    await Promise.all(
      this.procs.map(async (p) => {
        if (p.exitCode !== null || p.signalCode !== null) return;
        const gone = new Promise((r) => p.once('exit', r));
        p.kill('SIGKILL');
        await gone;
      }),
    );
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Parses `CLUSTER NODES` (one line per node: id, ip:port@bus[,hostname], flags, master id,
 * ping, pong, epoch, link state, slots...; https://redis.io/docs/latest/commands/cluster-nodes/).
 * A node's `host` is its IP (what ioredis connects to by default), else its announced hostname,
 * else '' (it announces neither).
 */
export function parseClusterNodes(table: string): TClusterNode[] {
  return table
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id = '', address = '', flags = '', , , , , link = '', ...slots] = line.split(' ');
      // `ip:port@cport[,hostname]`; IPv6 addresses keep their colons (the port is after the last).
      const [, ip = '', port = '0'] = /^(.*):(\d+)@/.exec(address) ?? [];
      const hostname = address.split(',')[1] ?? '';
      const flagList = flags.split(',');
      return {
        id,
        host: ip || (hostname.includes('=') ? '' : hostname),
        port: Number(port),
        role: flagList.includes('master') ? 'master' : 'replica',
        down: flagList.includes('fail') || link !== 'connected',
        slots: slots
          .filter((s) => /^\d+(-\d+)?$/.test(s))
          .map((s) => {
            const [a, b] = s.split('-').map(Number);
            return [a!, b ?? a!] as [number, number];
          }),
      };
    });
}
