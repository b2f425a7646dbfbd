/**
 * ASO Analysis (spec section 2): sections Title, Subtitle, Keyword Field, Icon, Video,
 * Screenshots, Rating and IAE (in-app events), each with its analysis, improvements, score and,
 * where the section has a limit, the count used against it. Then the prioritised
 * recommendations.
 */
import {
  CalendarDaysIcon,
  FilmIcon,
  HashIcon,
  ImageIcon,
  LightbulbIcon,
  SmartphoneIcon,
  StarIcon,
  SubtitlesIcon,
  TypeIcon,
  type LucideIcon,
} from 'lucide-react';
import {
  utf8ByteLength,
  ZRecommendation,
  type TAudit,
  type TRecommendation,
  type TSectionAnalysis,
  type TSectionKey,
} from '@aso/contracts';
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

/** Sections shown, in the spec's order. */
export const SHOWN_SECTIONS: TSectionKey[] = [
  'title',
  'subtitle',
  'keywords',
  'icon',
  'video',
  'screenshots',
  'rating',
  'inAppEvents',
];

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
};

/** What `used / limit` counts per section. */
const UNITS: Partial<Record<TSectionKey, string>> = {
  title: 'characters',
  subtitle: 'characters',
  keywords: 'bytes',
  screenshots: 'screenshots',
  video: 'previews',
  inAppEvents: 'events',
};

/** `used / limit` of a section: from the analysis, else computed from the audit's texts. */
function usage(
  key: TSectionKey,
  section: TSectionAnalysis,
  audit: TAudit,
): { used: number; limit: number } | null {
  if (section.used !== undefined && section.limit !== undefined)
    return { used: section.used, limit: section.limit };
  switch (key) {
    case 'title':
      return { used: charCount(audit.appName), limit: TITLE_MAX_CHARS };
    case 'subtitle':
      return { used: charCount(audit.subtitle), limit: SUBTITLE_MAX_CHARS };
    case 'keywords':
      return audit.keywords
        ? { used: utf8ByteLength(audit.keywords), limit: KEYWORD_FIELD_MAX_BYTES }
        : null;
    case 'icon':
    case 'video':
    case 'screenshots':
    case 'rating':
    case 'category':
    case 'inAppEvents':
      return null;
  }
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
              className="h-14 w-24 rounded-md"
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
              <p className="line-clamp-2 text-xs text-muted-foreground">{event.eventDescription}</p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function SectionCard({
  sectionKey,
  section,
  audit,
}: {
  sectionKey: TSectionKey;
  section: TSectionAnalysis;
  audit: TAudit;
}) {
  const Icon = ICONS[sectionKey];
  const use = usage(sectionKey, section, audit);
  const over = use !== null && use.used > use.limit;
  return (
    <Card className="gap-4" data-testid={`section-${sectionKey}`}>
      <CardHeader className="gap-3">
        <div className="flex items-start justify-between gap-3">
          <CardTitle className="flex items-center gap-2">
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
        <ScoreBar score={section.score} />
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
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm leading-relaxed text-foreground/90" data-testid="section-analysis">
          {section.analysis}
        </p>
        {sectionKey === 'inAppEvents' && <InAppEvents audit={audit} />}
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

/** The ASO Analysis block. */
export function AsoAnalysis({ audit }: { audit: TAudit }) {
  const analysis = audit.structuredAnalysis;
  const recommendations = parseRecommendations(audit.recommendations);
  return (
    <section className="space-y-4" data-testid="aso-analysis">
      <div>
        <h2 className="text-lg font-semibold">ASO Analysis</h2>
        <p className="text-sm text-muted-foreground">
          Each part of the listing, scored 0-100, with what to change.
        </p>
      </div>
      {recommendations.length > 0 && (
        <Card
          className="border-primary/30 bg-gradient-to-br from-primary/5 to-transparent"
          data-testid="recommendations"
        >
          <CardHeader>
            <CardTitle>Top recommendations</CardTitle>
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
            <SectionCard key={key} sectionKey={key} section={analysis[key]} audit={audit} />
          ))}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No analysis is available for this audit.</p>
      )}
    </section>
  );
}
