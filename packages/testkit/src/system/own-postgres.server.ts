import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './wait.helpers';

const run = promisify(execFile);

/** Where Debian installs the server binaries, one folder per major version. */
const DEBIAN_PG_ROOT = '/usr/lib/postgresql';
/** The account that owns a cluster when the caller is root (initdb refuses to run as root). */
const SERVER_ACCOUNT = 'postgres';

/** Why a PostgreSQL server of our own cannot be started on this machine (the message says). */
export class OwnPostgresUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnPostgresUnavailableError';
  }
}

/** The folder of `initdb`, `pg_ctl` and `postgres`: the newest Debian version, or PATH's. */
function binDir(): string | null {
  if (existsSync(DEBIAN_PG_ROOT)) {
    const versions = readdirSync(DEBIAN_PG_ROOT)
      .filter((v) => existsSync(join(DEBIAN_PG_ROOT, v, 'bin/initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(DEBIAN_PG_ROOT, versions[0], 'bin');
  }
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    return initdb ? initdb.replace(/\/initdb$/, '') : null;
  } catch {
    return null;
  }
}

/** uid and gid of `account`, or null when it does not exist. */
function accountIds(account: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', account], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', account], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/**
 * A PostgreSQL server of its own: a cluster made with `initdb` in a temporary folder, served on
 * a free loopback port (trust authentication, user `postgres`, no fsync: its data is thrown
 * away), so a test can stop and start the server without touching the shared one on 5432.
 * As root the cluster belongs to the `postgres` account and every command runs through
 * `runuser -u postgres` (initdb and postgres refuse root).
 */
export class OwnPostgres {
  private running = false;

  private constructor(
    readonly port: number,
    private readonly bin: string,
    private readonly dir: string,
    private readonly asAccount: boolean,
  ) {}

  /** The server's URL, on its `postgres` maintenance database (testkit replaces the name). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /**
   * Makes the cluster and starts the server (about 2 s).
   * @throws OwnPostgresUnavailableError when the binaries are missing or, as root, there is no
   *   `postgres` account or `runuser` to run them as.
   */
  static async start(): Promise<OwnPostgres> {
    const bin = binDir();
    if (!bin)
      throw new OwnPostgresUnavailableError('no initdb in /usr/lib/postgresql/*/bin or PATH');
    const root = process.getuid?.() === 0;
    const owner = root ? accountIds(SERVER_ACCOUNT) : null;
    if (root && !owner)
      throw new OwnPostgresUnavailableError(
        `running as root and there is no '${SERVER_ACCOUNT}' account to run initdb as`,
      );
    if (root && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
      throw new OwnPostgresUnavailableError('running as root and runuser is not installed');
    const dir = mkdtempSync(join(tmpdir(), 'aso-faults-pg-'));
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const server = new OwnPostgres(await freePort(), bin, dir, root);
    try {
      await server.exec('initdb', [
        '-D',
        server.dataDir,
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
        '--no-sync',
      ]);
      appendFileSync(
        join(server.dataDir, 'postgresql.conf'),
        [
          `port = ${server.port}`,
          `listen_addresses = '127.0.0.1'`,
          `unix_socket_directories = '${dir}'`,
          // Thrown away at the end: durability costs time and buys nothing here.
          'fsync = off',
          'synchronous_commit = off',
          'full_page_writes = off',
          '',
        ].join('\n'),
      );
      await server.up();
    } catch (err) {
      await server.destroy();
      if (err instanceof OwnPostgresUnavailableError) throw err;
      throw new OwnPostgresUnavailableError(
        `initdb or the first start failed: ${(err as Error).message}`,
      );
    }
    return server;
  }

  /** Runs a server binary (as the `postgres` account when the caller is root). */
  private async exec(tool: string, args: string[]): Promise<void> {
    const file = join(this.bin, tool);
    const [cmd, argv] = this.asAccount
      ? ['runuser', ['-u', SERVER_ACCOUNT, '--', file, ...args]]
      : [file, args];
    await run(cmd, argv, { timeout: 90_000 });
  }

  /** Starts the server and waits until it takes connections (`pg_ctl start -w`). */
  async up(): Promise<void> {
    await this.exec('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
    this.running = true;
  }

  /**
   * Stops the server as an operator restarting it would (`pg_ctl stop -m fast`: sessions are
   * ended, open transactions rolled back, a clean shutdown) and waits until it is down.
   */
  async down(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this.running) return;
    await this.exec('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    this.running = false;
  }

  /** Stops the server at once and deletes its cluster. */
  async destroy(): Promise<void> {
    await this.down('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
