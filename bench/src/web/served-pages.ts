import { get } from 'node:http';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium (`apt-get install -y chromium`), as the browser tests use it. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

/** `Accept-Encoding` of the dashboard chunk's requests: what Chromium sends. */
export const SERVED_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** One file as served: its path, content coding and bytes on the wire (body, compressed). */
export interface TServedFile {
  path: string;
  encoding: string;
  bytes: number;
}

/** The JS and CSS a page view fetched, as served. */
export interface TServedSet {
  files: TServedFile[];
  jsBytes: number;
  cssBytes: number;
}

function served(files: TServedFile[]): TServedSet {
  const sum = (ext: string) =>
    files.filter((f) => f.path.endsWith(ext)).reduce((a, f) => a + f.bytes, 0);
  return { files, jsBytes: sum('.js'), cssBytes: sum('.css') };
}

/**
 * Opens `baseUrl` in a fresh Chromium context (signed in when `token` is given: the web app
 * reads its bearer token from localStorage `sessionToken`), waits until the network is idle and
 * `ready` is on the page, and returns every same-origin script and stylesheet it fetched with
 * the bytes of its body as transferred (`responseBodySize`: compressed as the server sent it).
 */
async function pageView(
  browser: Browser,
  baseUrl: string,
  ready: string,
  token: string | null,
): Promise<TServedSet> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  try {
    if (token)
      await context.addInitScript((t: string) => localStorage.setItem('sessionToken', t), token);
    const page = await context.newPage();
    const pending: Promise<TServedFile | null>[] = [];
    page.on('response', (res) => {
      const type = res.request().resourceType();
      const url = new URL(res.url());
      if (url.origin !== new URL(baseUrl).origin || (type !== 'script' && type !== 'stylesheet'))
        return;
      pending.push(
        res
          .request()
          .sizes()
          .then((s) => ({
            path: url.pathname.slice(1),
            encoding: res.headers()['content-encoding'] ?? 'identity',
            bytes: s.responseBodySize,
          }))
          .catch(() => null),
      );
    });
    await page.goto('/', { waitUntil: 'networkidle', timeout: 60_000 });
    await page.waitForSelector(ready, { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const files = (await Promise.all(pending)).filter((f): f is TServedFile => f !== null);
    return served(files.sort((a, b) => a.path.localeCompare(b.path)));
  } finally {
    await context.close();
  }
}

/**
 * The sign-in page (anonymous) and the main screen (signed in with `token`) of the web app
 * served at `baseUrl`, as Chromium loads them: the JS and CSS each page view transferred.
 * @throws Error when Chromium cannot start or a page does not show `ready` within a minute.
 */
export async function measureServedPages(
  baseUrl: string,
  token: string,
  ready: { signIn: string; main: string },
): Promise<{ signIn: TServedSet; main: TServedSet }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    return {
      signIn: await pageView(browser, baseUrl, ready.signIn, null),
      main: await pageView(browser, baseUrl, ready.main, token),
    };
  } finally {
    await browser.close();
  }
}

/** Bytes of `path`'s body as `baseUrl` serves it to a browser (compressed, not decoded). */
function servedBytes(baseUrl: string, path: string): Promise<TServedFile> {
  return new Promise((resolve, reject) => {
    const req = get(
      new URL(path, baseUrl),
      { headers: { 'accept-encoding': SERVED_ACCEPT_ENCODING }, timeout: 30_000 },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          if ((res.statusCode ?? 0) >= 400)
            reject(new Error(`GET /${path} answered ${res.statusCode}`));
          else
            resolve({
              path,
              encoding: String(res.headers['content-encoding'] ?? 'identity'),
              bytes,
            });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET /${path} timed out`)));
    req.on('error', reject);
  });
}

/** The files `paths` (dist-relative) as `baseUrl` serves them to a browser. */
export async function servedFiles(baseUrl: string, paths: readonly string[]): Promise<TServedSet> {
  const files: TServedFile[] = [];
  for (const p of paths) files.push(await servedBytes(baseUrl, p));
  return served(files);
}
