/**
 * ASO Analysis (docs/product.md#results-view): sections Title, Subtitle, Keyword Field, Icon,
 * Video, Screenshots, Rating and IAE (in-app events), then Description, Updates, Localization,
 * Reviews, App Size and Compatibility, each with its analysis, improvements, score (or "not
 * judged"), where the section has a limit the count used against it, a "rules only" label when the
 * model's text could not be used, and a "how this is scored" disclosure listing the rules applied.
 * Then the prioritised recommendations.
 */
import {
  AlertTriangleIcon,
  CalendarDaysIcon,
  FileTextIcon,
  FilmIcon,
  HardDriveDownloadIcon,
  HashIcon,
  ImageIcon,
  LanguagesIcon,
  LightbulbIcon,
  MessageSquareWarningIcon,
  MonitorSmartphoneIcon,
  RefreshCwIcon,
  SmartphoneIcon,
  StarIcon,
  SubtitlesIcon,
  TypeIcon,
  type LucideIcon,
} from 'lucide-react';
import {
  SECTION_KEYS,
  utf8ByteLength,
  unreadableSectionInputs,
  ZRecommendation,
  type TAudit,
  type TRecommendation,
  type TSectionAnalysis,
  type TSectionKey,
  type TUnreadableInput,
} from '@aso/contracts';
import type { ReactNode } from 'react';
import {
  KEYWORD_FIELD_MAX_BYTES,
  SECTION_LABELS,
  SUBTITLE_MAX_CHARS,
  TITLE_MAX_CHARS,
} from '@aso/aso-rules';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { arrayOf } from '@/lib/api';
import { charCount } from '@/lib/format.helpers';
import { cn } from '@/lib/utils';
import { ScoreBar, ScorePill } from './score';
import { StoreImage } from './store-image';
import { ScoringDisclosure, RulesOnlyBadge } from './scoring-disclosure';

/**
 * Sections shown, in the contracts' order (the documented ones, then the listing sections that
 * follow them): every section but the category, which the app header shows.
 */
export const SHOWN_SECTIONS: readonly TSectionKey[] = SECTION_KEYS.filter((k) => k !== 'category');

const ICONS: Record<TSectionKey, LucideIcon> = {
  title: TypeIcon,
  subtitle: SubtitlesIcon,
  keywords: HashIcon,
  icon: ImageIcon,
  video: FilmIcon,
  screenshots: SmartphoneIcon,
  rating: StarIcon,
  category: HashIcon,
  inAppEvents: CalendarDaysIcon,
  description: FileTextIcon,
  updates: RefreshCwIcon,
  localization: LanguagesIcon,
  reviews: MessageSquareWarningIcon,
  appSize: HardDriveDownloadIcon,
  compatibility: MonitorSmartphoneIcon,
};

/** What `used / limit` counts per section. */
const UNITS: Partial<Record<TSectionKey, string>> = {
  title: 'characters',
  subtitle: 'characters',
  keywords: 'bytes',
  screenshots: 'screenshots',
  video: 'previews',
  inAppEvents: 'events',
  description: 'characters',
};

/** `used / limit` of a section: from the analysis, else computed from the audit's texts. */
function usage(
  key: TSectionKey,
  section: TSectionAnalysis,
  audit: TAudit,
): { used: number; limit: number } | null {
  if (section.used !== undefined && section.limit !== undefined)
    return { used: section.used, limit: section.limit };
  if (key === 'title') return { used: charCount(audit.appName), limit: TITLE_MAX_CHARS };
  if (key === 'subtitle') return { used: charCount(audit.subtitle), limit: SUBTITLE_MAX_CHARS };
  if (key === 'keywords' && audit.keywords)
    return { used: utf8ByteLength(audit.keywords), limit: KEYWORD_FIELD_MAX_BYTES };
  return null;
}

function InAppEvents({ audit }: { audit: TAudit }) {
  if (audit.inAppEvents.length === 0) return null;
  return (
    <ul className="space-y-2" data-testid="in-app-events">
      {audit.inAppEvents.map((event, i) => (
        <li
          key={`${event.eventName}-${i}`}
          className="flex gap-3 rounded-lg border bg-muted/40 p-2.5"
        >
          {event.eventImage && (
            <StoreImage
              src={event.eventImage}
              alt={`${event.eventName} event artwork`}
              label="Event artwork"
              aspectRatio="16 / 9"
              className="h-14 w-auto rounded-md"
            />
          )}
          <div className="min-w-0 space-y-0.5">
            <div className="flex flex-wrap items-center gap-1.5">
              {event.eventBadge && (
                <Badge variant="secondary" className="text-[10px] uppercase">
                  {event.eventBadge}
                </Badge>
              )}
              {event.timeIndicator && (
                <span className="text-xs text-muted-foreground">{event.timeIndicator}</span>
              )}
            </div>
            <p className="text-sm font-medium">{event.eventName}</p>
            {event.eventDescription && (
              <p className="line-clamp-2 text-xs text-muted-foreground print:line-clamp-none">
                {event.eventDescription}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** 'rating, rating count (not found on the 2025 page)': labels grouped by reason. */
function unreadableText(inputs: TUnreadableInput[]): string {
  const groups = new Map<string, string[]>();
  for (const input of inputs) {
    const key = input.reason ?? '';
    groups.set(key, [...(groups.get(key) ?? []), input.label]);
  }
  return [...groups]
    .map(([reason, labels]) => `${labels.join(', ')}${reason ? ` (${reason})` : ''}`)
    .join('; ');
}

function SectionCard({
  sectionKey,
  section,
  audit,
  extra,
}: {
  sectionKey: TSectionKey;
  section: TSectionAnalysis;
  audit: TAudit;
  /** What the result view adds to the section (the keyword ranks of the Keyword Field). */
  extra?: ReactNode;
}) {
  const Icon = ICONS[sectionKey];
  const unreadable = unreadableSectionInputs(audit.storeData, sectionKey);
  const use = usage(sectionKey, section, audit);
  const over = use !== null && use.used > use.limit;
  return (
    <Card className="gap-4" data-testid={`section-${sectionKey}`}>
      <CardHeader className="gap-3">
        <div className="flex items-start justify-between gap-3">
          <CardTitle as="h3" className="flex items-center gap-2">
            <span className="flex size-8 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-4" />
            </span>
            <span>{SECTION_LABELS[sectionKey]}</span>
            {sectionKey === 'inAppEvents' && (
              <span className="text-xs font-normal text-muted-foreground">in-app events</span>
            )}
          </CardTitle>
          <ScorePill score={section.score} />
        </div>
        {section.score !== null && <ScoreBar score={section.score} />}
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          {use && (
            <span
              className={cn(
                'font-medium tabular-nums',
                over ? 'text-destructive' : 'text-foreground',
              )}
              data-testid="section-usage"
            >
              {use.used}/{use.limit} {UNITS[sectionKey] ?? ''}
            </span>
          )}
          <Badge variant="outline" className="text-[10px] font-normal">
            {section.confidence} confidence
          </Badge>
          {audit.provider === 'openai' && section.textSource === 'rules' && (
            <RulesOnlyBadge reason={section.fallbackReason} />
          )}
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {unreadable.length > 0 && (
          <p
            className="flex gap-1.5 rounded-lg border border-warning/60 bg-warning/10 px-3 py-2 text-xs text-foreground"
            data-testid="section-unreadable"
          >
            <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            <span>
              This section&apos;s input could not be read from the store:{' '}
              {unreadableText(unreadable)}.
            </span>
          </p>
        )}
        <p className="text-sm leading-relaxed text-foreground/90" data-testid="section-analysis">
          {section.analysis}
        </p>
        {sectionKey === 'inAppEvents' && <InAppEvents audit={audit} />}
        {extra}
        {section.improvements.length > 0 && (
          <div className="rounded-lg bg-accent/60 p-3">
            <p className="mb-1.5 flex items-center gap-1.5 text-xs font-semibold tracking-wide text-accent-foreground uppercase">
              <LightbulbIcon className="size-3.5" /> Improvements
            </p>
            <ul className="list-disc space-y-1 pl-5 text-sm text-foreground/90">
              {section.improvements.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          </div>
        )}
        <ScoringDisclosure section={section} rulesVersion={audit.rulesVersion} />
      </CardContent>
    </Card>
  );
}

/** Parses the audit's `recommendations` JSON text; invalid text gives an empty list. */
export function parseRecommendations(text: string | null): TRecommendation[] {
  if (!text) return [];
  try {
    return arrayOf(ZRecommendation).parse(JSON.parse(text));
  } catch {
    return [];
  }
}

/**
 * The ASO Analysis block. `sectionExtras` adds content to sections by key (the signed-in
 * owner's result puts the search ranks of the audit's keywords in the Keyword Field).
 */
export function AsoAnalysis({
  audit,
  sectionExtras = {},
}: {
  audit: TAudit;
  sectionExtras?: Partial<Record<TSectionKey, ReactNode>>;
}) {
  const analysis = audit.structuredAnalysis;
  const recommendations = parseRecommendations(audit.recommendations);
  return (
    <section className="space-y-4" data-testid="aso-analysis">
      <div>
        <h2 className="text-lg font-semibold">ASO Analysis</h2>
        <p className="text-sm text-muted-foreground">
          Each part of the listing, scored 0-100 by published rules, with what to change. A section
          whose data could not be read is not judged and left out of the overall score.
        </p>
      </div>
      {recommendations.length > 0 && (
        <Card
          className="border-primary/30 bg-gradient-to-br from-primary/5 to-transparent"
          data-testid="recommendations"
        >
          <CardHeader>
            <CardTitle as="h3" className="flex items-center gap-2">
              Top recommendations
              {audit.provider === 'openai' && audit.recommendationsSource === 'rules' && (
                <RulesOnlyBadge />
              )}
            </CardTitle>
            <CardDescription>Ordered by what they can add to the overall score.</CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="space-y-3">
              {recommendations.map((r) => (
                <li key={r.priority} className="flex gap-3">
                  <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">
                    {r.priority}
                  </span>
                  <div className="min-w-0 space-y-0.5">
                    <p className="text-sm font-medium">{r.title}</p>
                    <p className="text-sm text-foreground/90">{r.action}</p>
                    <p className="text-xs text-muted-foreground">{r.expectedEffect}</p>
                  </div>
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      )}
      {analysis ? (
        <div className="grid gap-4 xl:grid-cols-2">
          {SHOWN_SECTIONS.map((key) => (
            <SectionCard
              key={key}
              sectionKey={key}
              section={analysis[key]}
              audit={audit}
              extra={sectionExtras[key]}
            />
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No analysis is available for this audit.</p>
      )}
    </section>
  );
}
