import { parseArgs } from 'node:util';
import { ApiClient, ApiError, readSse } from '@aso/api-client';
import {
  abbreviateCount,
  categoryLabel,
  SECTION_KEYS,
  storeDataDateLine,
  storeDataLine,
  unreadableSectionInputs,
  ZCompleteEventData,
  ZErrorEventData,
  ZRecommendation,
  ZStepEventData,
  type TAnalyzeRequest,
  type TAudit,
  type TStepEventData,
} from '@aso/contracts';
import { overallScoreText, scoreComposition, SECTION_LABELS } from '@aso/aso-rules';
import type { TCliEnv } from './env';
import { formatKeywords, trackAndReport } from './keywords.cli';

/** How long `keywords` waits for the first reads by default (s). */
const DEFAULT_KEYWORDS_WAIT_S = 300;

/** Where the CLI writes: `out` gets the result, `err` progress and errors. */
export interface TCliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE = `Usage: pnpm aso audit <app-store-url> [--competitor <url>]... [--keywords "..."] [--json]
       pnpm aso keywords <app-store-url> --term <term>... [--wait <seconds>] [--json]

Signs in with ASO_EMAIL and ASO_ACCESS_CODE against the gateway at ASO_API_URL
(default http://127.0.0.1:3000).
audit: starts an audit, shows each step as it happens, then prints the audit (readable text,
  or JSON with --json). Up to 3 competitors.
keywords: tracks the terms for the app in the URL's storefront, waits for their search reads
  (under the search rate limit; at most --wait seconds, default ${DEFAULT_KEYWORDS_WAIT_S}), then prints each
  term's rank in the iTunes Search API order, its popularity and difficulty estimates and the
  best-ranked watched competitor (or JSON with --json).`;

/** The gateway's client for `env` (its URL and the timeout of one call). */
function cliApiClient(env: TCliEnv): ApiClient {
  return new ApiClient(env.ASO_API_URL, env.ASO_HTTP_TIMEOUT_MS);
}

/**
 * Signs in and returns the session token: login with `ASO_ACCESS_CODE` as the personal
 * sign-in code; when that fails and this email has no account yet, registers with it as an
 * access code, and tells (on stderr, through `say`) the personal sign-in code to use from then
 * on, which the server gives only this once.
 */
export async function signIn(
  env: TCliEnv,
  client = cliApiClient(env),
  say: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  if (!env.ASO_EMAIL || !env.ASO_ACCESS_CODE) {
    throw new Error(
      'Set ASO_EMAIL and ASO_ACCESS_CODE to sign in (your personal sign-in code, or the access code from your administrator to register).',
    );
  }
  try {
    return (await client.login(env.ASO_EMAIL, env.ASO_ACCESS_CODE)).sessionToken;
  } catch (loginErr) {
    if (!(loginErr instanceof ApiError) || loginErr.status === 429 || loginErr.status >= 500)
      throw loginErr;
    let registered;
    try {
      registered = await client.register(env.ASO_EMAIL, env.ASO_ACCESS_CODE);
    } catch {
      throw loginErr;
    }
    say(
      `Registered ${env.ASO_EMAIL}. Your personal sign-in code is ${registered.signInCode}: set ASO_ACCESS_CODE to it from now on (it is shown only this once).`,
    );
    return registered.sessionToken;
  }
}

/** A rating with one decimal as the store shows it ('4.78' -> '4.8'); '-' when not a number. */
export function formatRating(text: string | null): string {
  const n = Number.parseFloat(text ?? '');
  return Number.isFinite(n) ? n.toFixed(1) : '-';
}

const ICON: Record<TStepEventData['status'], string> = {
  pending: '·',
  in_progress: '…',
  done: '✓',
  error: '✗',
};

/** One progress line: icon, step id, message and percent. */
export function formatStep(s: TStepEventData): string {
  return `${ICON[s.status]} ${s.step_id.padEnd(24)} ${s.message}${s.status === 'in_progress' ? ` (${s.progress_pct}%)` : ''}`;
}

/** The audit as readable text (sections, recommendations, competitors). */
export function formatAudit(a: TAudit): string {
  const lines: string[] = [];
  lines.push(`${a.appName ?? a.appId}${a.subtitle ? ` - ${a.subtitle}` : ''}`);
  const rank = a.categoryRank && a.categoryRank !== 'N/A' ? ` | ${a.categoryRank}` : '';
  const rating =
    a.storeData?.fields.rating?.state === 'unreadable'
      ? 'rating not read'
      : `rating ${formatRating(a.rating)} (${abbreviateCount(a.reviewCount)} ratings)`;
  lines.push(
    `${a.developer ?? ''} | ${categoryLabel(a.category, a.genreId) ?? ''}${rank} | ${rating}`,
  );
  lines.push(`${a.appStoreUrl}`);
  lines.push(
    `Screenshots: ${a.screenshots.length} | preview video: ${a.previewVideoUrl ? 'yes' : 'no'} | in-app events: ${a.inAppEvents.length}`,
  );
  const facts: string[] = [];
  if (a.ageRating) facts.push(`age rating ${a.ageRating}`);
  if (a.price) {
    const shown = a.price.formatted ?? (a.price.amount === 0 ? 'free' : String(a.price.amount));
    facts.push(`price ${shown}${a.price.currency ? ` (${a.price.currency})` : ''}`);
  }
  if (a.languages?.length) facts.push(`languages: ${a.languages.join(', ')}`);
  if (facts.length > 0) lines.push(facts.join(' | '));
  if (a.storeData) {
    const dated = storeDataDateLine(a.storeData);
    if (dated) lines.push(dated);
    lines.push(storeDataLine(a.storeData));
  }
  if (a.structuredAnalysis) {
    const composition = scoreComposition(a.structuredAnalysis);
    lines.push(
      `Overall score: ${overallScoreText(a.overallScore, composition)} (${a.provider ?? 'unknown'} analysis${a.rulesVersion ? `, rules ${a.rulesVersion}` : ''})`,
    );
    if (composition.notJudged.length > 0)
      lines.push(`Not judged: ${composition.notJudged.join(', ')}`);
  }
  if (a.structuredAnalysis) {
    lines.push('', 'ASO analysis');
    for (const key of SECTION_KEYS) {
      const s = a.structuredAnalysis[key];
      const score = s.score === null ? 'not judged' : `${String(s.score).padStart(3)}/100`;
      const rulesOnly = a.provider === 'openai' && s.textSource === 'rules' ? ', rules only' : '';
      lines.push(
        `  ${SECTION_LABELS[key].padEnd(14)} ${score.padStart(10)}  (${s.confidence} confidence${rulesOnly})`,
      );
      lines.push(`    ${s.analysis}`);
      const unread = unreadableSectionInputs(a.storeData, key);
      if (unread.length > 0) {
        lines.push(
          `    (input not read from the store: ${unread.map((u) => `${u.label}${u.reason ? ` - ${u.reason}` : ''}`).join('; ')})`,
        );
      }
      for (const i of s.improvements) lines.push(`    - ${i}`);
      const failed = s.rules.filter((r) => r.status === 'failed');
      if (failed.length > 0)
        lines.push(`    rules failed: ${failed.map((r) => `${r.id} (-${r.points})`).join(', ')}`);
    }
  }
  if (a.recommendations) {
    const recs = ZRecommendation.array().safeParse(JSON.parse(a.recommendations));
    if (recs.success && recs.data.length) {
      lines.push('', 'Recommendations');
      for (const r of recs.data)
        lines.push(
          `  ${r.priority}. [${SECTION_LABELS[r.section]}] ${r.action} Expected effect: ${r.expectedEffect}`,
        );
    }
  }
  if (a.competitorData.length) {
    lines.push('', 'Competitors');
    for (const c of a.competitorData) {
      lines.push(
        `  ${c.appName}${c.subtitle ? ` - ${c.subtitle}` : ''} | rating ${formatRating(c.rating)} (${abbreviateCount(c.reviewCount)})`,
      );
      if (c.storeData) {
        const dated = storeDataDateLine(c.storeData);
        if (dated) lines.push(`    ${dated}`);
        lines.push(`    ${storeDataLine(c.storeData)}`);
      }
      lines.push(`    ${c.screenshotAnalysis}`);
    }
  }
  return lines.join('\n');
}

/**
 * Follows an audit's progress stream until `complete` (returns) or `error` (throws the
 * server's message), printing each step with `onStep`. A dropped connection is resumed with
 * `Last-Event-ID` (up to 5 times in a row).
 */
export async function followProgress(
  env: TCliEnv,
  token: string,
  auditId: string,
  onStep: (s: TStepEventData) => void,
): Promise<void> {
  let lastId: string | undefined;
  let failures = 0;
  for (;;) {
    try {
      const url = new URL('/api/progress', env.ASO_API_URL);
      url.searchParams.set('auditId', auditId);
      for await (const m of readSse(url.toString(), {
        headers: {
          authorization: `Bearer ${token}`,
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
      })) {
        failures = 0;
        if (m.id) lastId = m.id;
        if (m.event === 'step') onStep(ZStepEventData.parse(JSON.parse(m.data)));
        else if (m.event === 'error')
          throw new Error(ZErrorEventData.parse(JSON.parse(m.data)).message);
        else if (m.event === 'complete') {
          ZCompleteEventData.parse(JSON.parse(m.data));
          return;
        }
      }
    } catch (err) {
      if (!(err instanceof TypeError) || ++failures > 5) throw err;
    }
    if (++failures > 5) throw new Error('The progress stream closed before the audit finished.');
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A failure as one line: the server's message, or which gateway could not be reached. */
function describeError(err: unknown, env: TCliEnv): string {
  if (err instanceof TypeError && err.message === 'fetch failed') {
    const cause = err.cause instanceof Error ? err.cause.message : 'no answer';
    return `could not reach the API at ${env.ASO_API_URL} (${cause}); is the gateway running?`;
  }
  if (err instanceof Error && err.name === 'TimeoutError')
    return `the API at ${env.ASO_API_URL} did not answer in time`;
  if (err instanceof ApiError) return `${err.status}: ${err.serverMessage}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs the CLI with `argv` (without node and script). Returns the exit code: 0 on success,
 * 1 when the audit or a call failed (the server's message is printed), 2 for bad usage.
 */
export async function runCli(argv: string[], env: TCliEnv, io: TCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        competitor: { type: 'string', multiple: true },
        keywords: { type: 'string' },
        term: { type: 'string', multiple: true },
        wait: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  const [command, url, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  if ((command !== 'audit' && command !== 'keywords') || !url || rest.length > 0) {
    io.err(USAGE);
    return 2;
  }
  if (command === 'keywords') return runKeywords(url, parsed.values, env, io);
  const competitors = parsed.values.competitor ?? [];
  if (competitors.length > 3) {
    io.err('At most 3 competitors (--competitor) can be compared.');
    return 2;
  }
  const json = parsed.values.json;
  const progress = json ? io.err : io.out;
  try {
    const client = cliApiClient(env);
    const token = await signIn(env, client, io.err);
    // Fields left undefined are not sent.
    const body: TAnalyzeRequest = {
      appStoreUrl: url,
      keywords: parsed.values.keywords || undefined,
      competitorUrl1: competitors[0],
      competitorUrl2: competitors[1],
      competitorUrl3: competitors[2],
    };
    const { id } = await client.analyze(token, body);
    progress(`Audit ${id} started`);
    await followProgress(env, token, id, (s) => progress(formatStep(s)));
    const audit = await client.audit(token, id);
    io.out(json ? JSON.stringify(audit, null, 2) : formatAudit(audit));
    return 0;
  } catch (err) {
    io.err(`Analysis failed: ${describeError(err, env)}`);
    return 1;
  }
}

/**
 * `pnpm aso keywords`: exit 0 when every term was read, 1 when a call failed or a term is still
 * unread after `--wait` (what was read is printed), 2 for bad usage.
 */
async function runKeywords(
  url: string,
  values: { term?: string[] | undefined; wait?: string | undefined; json?: boolean | undefined },
  env: TCliEnv,
  io: TCliIo,
): Promise<number> {
  const terms = values.term ?? [];
  if (terms.length === 0) {
    io.err(`Give at least one --term.\n\n${USAGE}`);
    return 2;
  }
  const waitS = values.wait === undefined ? DEFAULT_KEYWORDS_WAIT_S : Number(values.wait);
  if (!Number.isFinite(waitS) || waitS < 0 || waitS > 3_600) {
    io.err('--wait: give the seconds to wait for the reads, 0 to 3600.');
    return 2;
  }
  try {
    const client = cliApiClient(env);
    const token = await signIn(env, client, io.err);
    const report = await trackAndReport(client, token, url, terms, waitS * 1000);
    io.out(values.json ? JSON.stringify(report, null, 2) : formatKeywords(report));
    return report.unread.length === 0 ? 0 : 1;
  } catch (err) {
    io.err(`Keywords failed: ${describeError(err, env)}`);
    return 1;
  }
}
