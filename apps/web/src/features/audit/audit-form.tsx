/**
 * The audit form (docs/product.md#audit-tab, #states-and-transitions and #validation-rules): the
 * app's URL, the keywords/metadata text (live counter, hard limit 100), three competitor URLs, and
 * 'start ASO analysis'.
 *
 * URL fields follow docs/product.md#states-and-transitions: editing resets a field to idle; leaving
 * it validates it with the shared URL rules of `@aso/appstore` (empty -> idle). Competitor fields
 * that repeat an app show 'This URL already exists'. While the main URL is invalid the start button
 * is disabled and the inline hint shows; a URL without the store host also raises the 'Invalid URL'
 * toast.
 */
import { useMutation } from '@tanstack/react-query';
import { Loader2Icon, RocketIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  APP_STORE_HOST,
  isValidAppStoreUrl,
  parseAppStoreUrl,
  selectCompetitors,
  validateCompetitorUrls,
  type TParsedAppStoreUrl,
} from '@aso/appstore';
import {
  KEYWORDS_MAX_CHARS,
  MAX_COMPETITORS,
  ZAnalyzeAnswer,
  type TAnalyzeRequest,
} from '@aso/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { dismissToasts, toast } from '@/components/ui/use-toast';
import { apiFetch, serverMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { UrlField } from './url-field';

const IDLE: TParsedAppStoreUrl = { status: 'idle', storefront: 'us' };
const EXAMPLE_URL = 'https://apps.apple.com/us/app/spotify-music-and-podcasts/id324684580';

/**
 * Inline hint under the start button while the main URL is invalid
 * (docs/product.md#validation-rules).
 */
export const INVALID_URL_HINT = 'Please enter a valid App Store URL';

/** Topics of the form's toasts: closed once the link is valid, or the audit starts. */
const URL_TOPIC = 'audit-url';
const ANALYSIS_TOPIC = 'analysis';

function showInvalidUrlToast() {
  toast({
    title: 'Invalid URL',
    description: `Please enter a valid App Store URL (${APP_STORE_HOST})`,
    variant: 'destructive',
    topic: URL_TOPIC,
  });
}

/** What the form hands over once the audit is accepted. */
export interface TStartedAudit {
  auditId: string;
  /** Main app plus the competitors sent: drives the time estimate. */
  validLinks: number;
}

/** The form; calls `onStarted` after `POST /api/analyze` answers with the new id. */
export function AuditForm({ onStarted }: { onStarted: (started: TStartedAudit) => void }) {
  // Index 0 is the app's URL, 1-3 the competitors'. `touched` = left since the last edit.
  const [urls, setUrls] = useState<string[]>(['', '', '', '']);
  const [touched, setTouched] = useState<boolean[]>([false, false, false, false]);
  const [keywords, setKeywords] = useState('');

  const mainState = touched[0] ? parseAppStoreUrl(urls[0]) : IDLE;
  const competitorStates = validateCompetitorUrls(urls[0] ?? '', urls.slice(1)).map((state, i) =>
    touched[i + 1] ? state : IDLE,
  );
  const mainInvalid = mainState.status === 'invalid';

  const edit = (index: number, value: string) => {
    // Fixing the link answers 'Invalid URL' (the field checks it again when left).
    if (index === 0) dismissToasts(URL_TOPIC);
    setUrls((prev) => prev.map((v, i) => (i === index ? value : v)));
    setTouched((prev) => prev.map((t, i) => (i === index ? false : t)));
  };
  const leave = (index: number) => {
    setTouched((prev) => prev.map((t, i) => (i === index ? true : t)));
    const value = urls[index]?.trim() ?? '';
    if (index !== 0) return;
    if (value !== '' && !value.includes(APP_STORE_HOST)) showInvalidUrlToast();
    else if (isValidAppStoreUrl(parseAppStoreUrl(value))) dismissToasts(URL_TOPIC);
  };

  const analyze = useMutation({
    mutationFn: (body: TAnalyzeRequest) =>
      apiFetch('/api/analyze', { method: 'POST', body, schema: ZAnalyzeAnswer }),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched([true, true, true, true]);
    const main = parseAppStoreUrl(urls[0]);
    if (!isValidAppStoreUrl(main)) {
      showInvalidUrlToast();
      return;
    }
    const competitors = selectCompetitors(urls[0] ?? '', urls.slice(1)).slice(0, MAX_COMPETITORS);
    const body: TAnalyzeRequest = { appStoreUrl: main.normalizedUrl };
    if (keywords.trim() !== '') body.keywords = keywords.trim();
    competitors.forEach((c, i) => {
      body[`competitorUrl${i + 1}` as 'competitorUrl1'] = c.normalizedUrl;
    });
    dismissToasts(URL_TOPIC);
    analyze.mutate(body, {
      onSuccess: ({ id }) => {
        dismissToasts(ANALYSIS_TOPIC);
        onStarted({ auditId: id, validLinks: 1 + competitors.length });
      },
      onError: (err) =>
        toast({
          title: 'Analysis Failed',
          description: serverMessage(err, 'Failed to analyze app. Please try again.'),
          variant: 'destructive',
          topic: ANALYSIS_TOPIC,
        }),
    });
  };

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 sm:px-6 lg:py-12">
      <div className="space-y-2">
        <p className="text-xs font-semibold tracking-widest text-primary uppercase">
          app page audit
        </p>
        <h1 tabIndex={-1} className="focus-target text-3xl font-semibold tracking-tight">
          Audit your App Store page
        </h1>
        <p className="max-w-2xl text-muted-foreground">
          Paste your app's App Store link. The robot reads the listing, checks it against Apple's
          limits and your competitors, and tells you what to fix first.
        </p>
      </div>

      <form onSubmit={onSubmit} noValidate>
        <Card>
          <CardHeader>
            <CardTitle>Your app</CardTitle>
            <CardDescription>iPhone listings on apps.apple.com.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <UrlField
              id="app-url"
              label="App Store URL"
              placeholder={EXAMPLE_URL}
              value={urls[0] ?? ''}
              state={mainState}
              onChange={(v) => edit(0, v)}
              onBlur={() => leave(0)}
            />
            <div className="space-y-1.5">
              <div className="flex items-end justify-between gap-2">
                <Label htmlFor="keywords">
                  Keywords / metadata{' '}
                  <span className="font-normal text-muted-foreground">(optional)</span>
                </Label>
                <span
                  data-testid="keywords-counter"
                  className={cn(
                    'text-xs tabular-nums',
                    keywords.length >= KEYWORDS_MAX_CHARS
                      ? 'font-medium text-destructive'
                      : 'text-muted-foreground',
                  )}
                >
                  {keywords.length}/{KEYWORDS_MAX_CHARS}
                </span>
              </div>
              <Textarea
                id="keywords"
                rows={3}
                maxLength={KEYWORDS_MAX_CHARS}
                placeholder="music,podcast,playlist,songs,radio"
                value={keywords}
                onChange={(e) => setKeywords(e.target.value.slice(0, KEYWORDS_MAX_CHARS))}
              />
              <p className="text-xs text-muted-foreground">
                Your keyword field is not public: paste it here to have it checked against the title
                and subtitle.
              </p>
            </div>
          </CardContent>

          <div className="mx-5 border-t" />

          <CardHeader>
            <CardTitle>Competitors</CardTitle>
            <CardDescription>Up to three apps to compare with (optional).</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            {[1, 2, 3].map((n) => (
              <UrlField
                key={n}
                id={`competitor-url-${n}`}
                label={`Competitor ${n}`}
                placeholder="https://apps.apple.com/us/app/…/id…"
                value={urls[n] ?? ''}
                state={competitorStates[n - 1] ?? IDLE}
                optional
                onChange={(v) => edit(n, v)}
                onBlur={() => leave(n)}
              />
            ))}
          </CardContent>

          <div className="flex flex-col gap-3 border-t px-5 pt-5 sm:flex-row sm:items-start sm:justify-between">
            <p className="text-xs text-muted-foreground sm:pt-3">Takes about a minute per app.</p>
            <div className="flex flex-col items-stretch gap-1.5 sm:items-end">
              <Button
                type="submit"
                size="lg"
                disabled={mainInvalid || analyze.isPending}
                focusableWhenDisabled
              >
                {analyze.isPending ? <Loader2Icon className="animate-spin" /> : <RocketIcon />}
                start ASO analysis
              </Button>
              <p className="min-h-4 text-xs leading-4 font-medium text-destructive">
                {mainInvalid && <span data-testid="invalid-url-hint">{INVALID_URL_HINT}</span>}
              </p>
            </div>
          </div>
        </Card>
      </form>
    </div>
  );
}
